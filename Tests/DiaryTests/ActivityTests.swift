import Diary
import Foundation
import Testing

/// The activity record's own rules: a month filter read strictly, in Korean time; labels a line keeps short (the
/// first line that has words); what a browser is called.
@Suite struct ActivityTests {
    @Test func aMonthIsYearDashMonthInKoreanTime() throws {
        let november = try ActivityMonth("2026-11")
        #expect(november.description == "2026-11")
        // 2026-11-01 00:00 in Seoul is 2026-10-31 15:00 UTC.
        #expect(november.interval.start == Date(timeIntervalSince1970: 1_793_458_800))
        #expect(november.interval.end.timeIntervalSince(november.interval.start) == 30 * 86_400)
        #expect(try ActivityMonth("2026-12").interval.end == (try ActivityMonth("2027-01")).interval.start)
        for bad in ["", "2026", "2026-1", "2026-13", "2026-00", "26-11", "+026-11", "2026-11-01", "１２３４-11", "november", "2026--1"] {
            #expect(throws: ValidationError.self, "\(bad)") { try ActivityMonth(bad) }
        }
    }

    @Test func aLabelIsAFirstLineOfAtMostEightyCharacters() {
        #expect(Activity.label(title: "", body: "\n  둘째 줄이 첫 줄  \n셋째") == "둘째 줄이 첫 줄")
        #expect(Activity.label(title: "", body: "첫 줄\n둘째") == "첫 줄")
        #expect(Activity.label(title: "  제목  ", body: "본문") == "제목")
        let long = Activity.label(String(repeating: "가", count: 200))
        #expect(long.count == 80 && long.hasSuffix("…"))
    }

    @Test(arguments: [
        ("Mozilla/5.0 (Linux; Android 14; SM-S918N) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0 Mobile Safari/537.36",
         "Samsung Internet · Android"),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
         "Safari · iPhone"),
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0", "Edge · Windows"),
        ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Whale/3.26 Safari/537.36", "Whale · Mac"),
        ("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", "Firefox · Linux"),
        ("", "? · ?"),
    ])
    func aBrowserIsCalledWhatPeopleKnowItAs(agent: String, label: String) {
        #expect(Activity.deviceLabel(agent) == label)
    }
}
