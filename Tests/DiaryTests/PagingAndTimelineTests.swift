import Foundation
import KoreanCalendar
import Testing

@testable import Diary

@Suite struct PagingAndTimelineTests {
    @Test(arguments: ["2026-11-22T12:00", "", "2026-11-22 12:00:00.123", "가나다\u{1F476}"])
    func cursorsRoundTrip(_ key: String) throws {
        let cursor = PageCursor(sortKey: key, id: "6f1c1f0e-3a8e-4bb4-9a53-0b6a5e8f2d11")
        let text = cursor.description
        #expect(!text.contains("+") && !text.contains("/") && !text.contains("="))
        #expect(try PageCursor(text) == cursor)
    }

    /// The table's base64url is Foundation's base64 with `-_` for `+/` and no padding, for every length's remainder.
    @Test func base64URLIsFoundationsWithTheURLAlphabet() {
        var state: UInt64 = 35
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 56)
            }
            let foundation = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == foundation, "\(bytes)")
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }

    @Test(arguments: ["!!", "AAAA", "a", "YWJj", "a+b/"])
    func foreignCursorsAreRefused(_ text: String) {
        #expect(throws: ValidationError.self) { try PageCursor(text) }
    }

    @Test func limits() throws {
        #expect(try PageCursor.limit(nil) == 50)
        #expect(try PageCursor.limit(200) == 200)
        #expect(throws: ValidationError.self) { try PageCursor.limit(0) }
        #expect(throws: ValidationError.self) { try PageCursor.limit(201) }
    }

    @Test func monthSectionsKeepOrderAndGroupRuns() throws {
        let dates = ["2026-11-22", "2026-11-01", "2026-10-31", "2025-11-30"].map { try! SolarDate(iso: $0) }
        let sections = MonthSection.group(dates) { YearMonth($0) }
        #expect(sections.map(\.month.iso) == ["2026-11", "2026-10", "2025-11"])
        #expect(sections.map(\.items.count) == [2, 1, 1])
    }

    @Test func periodsCoverTheirDatesOnly() throws {
        let month = TimelineFilter.Period.month(try YearMonth(iso: "2026-12"))
        #expect(month.bounds.from == "2026-12" && month.bounds.before == "2027-01")
        #expect("2026-12-31T23:59" >= month.bounds.from && "2026-12-31T23:59" < month.bounds.before)
        #expect(!("2027-01-01T00:00" < month.bounds.before))
        let year = TimelineFilter.Period.year(2026)
        #expect(year.bounds == ("2026", "2027"))
        #expect(throws: ValidationError.self) { try YearMonth(iso: "2026-1") }
    }
}

@Suite struct OnThisDayTests {
    @Test func solarAndLunarDays() throws {
        let plain = OnThisDay(date: try SolarDate(iso: "2026-11-22"), includeLunar: false)
        #expect(plain.solarMonthDays == ["11-22"] && plain.lunarDates.isEmpty)
        #expect(OnThisDay(date: try SolarDate(iso: "2027-02-28"), includeLunar: false).solarMonthDays == ["02-28", "02-29"])
        #expect(OnThisDay(date: try SolarDate(iso: "2028-02-28"), includeLunar: false).solarMonthDays == ["02-28"])
        // 2026-02-17 is 설날 (lunar 1/1): a year earlier, lunar 1/1 was 2025-01-29.
        let lunar = OnThisDay(date: try SolarDate(iso: "2026-02-17"), includeLunar: true)
        #expect(lunar.lunarDates.first?.iso == "2025-01-29")
        #expect(lunar.lunarDates.count == OnThisDay.lunarYearsBack)
    }
}
