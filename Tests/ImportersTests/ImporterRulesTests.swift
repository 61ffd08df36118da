import Diary
import Foundation
import KoreanCalendar
import Testing

@testable import Importers

/// The small rules the importers live by, without files: the legacy app's date strings and anniversaries, and Day
/// One's text.
@Suite struct ImporterRulesTests {
    /// A failure crosses from the process that reads an uploaded store to the server on one line, in both languages.
    @Test func aFailureSaysItselfInBothLanguagesAcrossOneLine() {
        let failure = ImportFailure("a.sqlite: not a SQLite database", korean: "a.sqlite: SQLite 데이터베이스가 아닙니다")
        let carried = ImportFailure(line: Substring(failure.line))
        #expect(carried.description == failure.description && carried.korean == failure.korean)
        #expect(carried.text(inKorean: true) == "a.sqlite: SQLite 데이터베이스가 아닙니다")
        #expect(carried.text(inKorean: false) == "a.sqlite: not a SQLite database")
        let english = ImportFailure(line: "x: no birthday")
        #expect(english.korean == nil && english.text(inKorean: true) == "x: no birthday")
        #expect(ImportFailure(line: "").description.isEmpty)
        #expect(ImportFailure(line: "\u{1F}").korean == "")
    }

    @Test func legacyDateStrings() {
        #expect(yearMonthDay("2010. 8. 15.")! == (2010, 8, 15))
        #expect(yearMonthDay("2010.08.15")! == (2010, 8, 15))
        #expect(yearMonthDay("8. 15.") == nil)
        #expect(yearMonthDay(nil) == nil)
        #expect(AnnData.monthDay("5. 5.")! == (5, 5))
        #expect(AnnData.monthDay("12. 25.")! == (12, 25))
        #expect(AnnData.monthDay("어린이날") == nil)
    }

    @Test func publicHolidaysAreRecognisedByDateAndName() {
        #expect(AnnData.publicHoliday(name: "크리스마스", calendar: .solar, month: 12, day: 25) == "기독탄신일")
        #expect(AnnData.publicHoliday(name: " 어린이날", calendar: .solar, month: 5, day: 5) == "어린이날")  // stray spaces
        #expect(AnnData.publicHoliday(name: "어린이날", calendar: .solar, month: 5, day: 5) == "어린이날")
        #expect(AnnData.publicHoliday(name: "설날", calendar: .lunar, month: 1, day: 1) == "설날")
        #expect(AnnData.publicHoliday(name: "석가탄신일", calendar: .lunar, month: 4, day: 8) != nil)
        // 식목일 stopped being a public holiday after 2005: neither 2011's nor today's rules have it.
        #expect(AnnData.publicHoliday(name: "식목일", calendar: .solar, month: 4, day: 5) == nil)
        // The family's own day on a holiday's date is theirs; an observance Saessak does not list is imported.
        #expect(AnnData.publicHoliday(name: "결혼기념일", calendar: .solar, month: 10, day: 3) == nil)
        #expect(AnnData.publicHoliday(name: "칠석", calendar: .lunar, month: 7, day: 7) == nil)
    }

    @Test func dayOneTextBecomesTitleAndBody() throws {
        let day = try SolarDate(year: 2020, month: 5, day: 5)
        let (title, body) = DayOneImport.titleAndBody("# 어린이날\n동물원\\. 기린\\!\n![](dayone-moment://ABC123)\n\n\n\n끝", date: day)
        #expect(title == "어린이날")
        #expect(body == "동물원. 기린!\n\n끝")
        #expect(DayOneImport.titleAndBody("", date: day) == ("2020년 5월 5일", ""))
        #expect(DayOneImport.titleAndBody("![](dayone-moment:/XYZ)\n사진만", date: day) == ("사진만", ""))
    }

    /// The patterns run only on text holding what they look for; over generated text of the pieces they match
    /// (escapes, photo links, runs of newlines with carriage returns and combining marks beside them) the title and
    /// body are those of running every pattern on every text, as the importer did before.
    @Test func dayOneTextIsCleanedAsIfEveryPatternRan() throws {
        let day = try SolarDate(year: 2020, month: 5, day: 5)
        func everyPattern(_ markdown: String) -> (String, String) {
            var text = markdown.replacingOccurrences(of: #"!\[[^\]]*\]\(dayone-moment:/{1,2}[^)]*\)"#, with: "", options: .regularExpression)
            text = text.replacingOccurrences(of: #"\\([\\`*_{}\[\]()#+\-.!>|~])"#, with: "$1", options: .regularExpression)
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            while let first = lines.first, first.trimmingCharacters(in: .whitespaces).isEmpty { lines.removeFirst() }
            guard let first = lines.first else { return ("2020년 5월 5일", "") }
            lines.removeFirst()
            var title = first.trimmingCharacters(in: .whitespaces)
            while title.hasPrefix("#") { title.removeFirst() }
            title = title.trimmingCharacters(in: .whitespaces)
            if title.isEmpty { title = "2020년 5월 5일" }
            if title.unicodeScalars.count > EntryContent.maxTitleLength {
                lines.insert(first, at: 0)
                title = Validate.prefix(title, scalars: 60) + "…"
            }
            let body = lines.joined(separator: "\n").replacingOccurrences(of: #"\n{3,}"#, with: "\n\n", options: .regularExpression)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return (title, body)
        }
        let pieces = [
            "\\", ".", "!", "\n", "\r\n", "\r", "\u{301}", "![", "](", ")", "dayone-moment:", "//", "/", "가", "e", " ", "#", "\\\u{301}",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...24, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            let (title, body) = DayOneImport.titleAndBody(text, date: day)
            let expected = everyPattern(text)
            #expect(title == expected.0 && body == expected.1, "\(text.debugDescription)")
        }
    }

    @Test func dayOneDates() {
        #expect(DayOneImport.instant("2020-05-05T03:12:00Z") == Date(timeIntervalSince1970: 1_588_648_320))
        #expect(DayOneImport.instant("2021-08-01T23:00:00.000Z") == Date(timeIntervalSince1970: 1_627_858_800))
        #expect(DayOneImport.instant("2020-13-45T00:00:00Z") == nil)
    }
}

/// Limits count Unicode scalars (issue 33): a title an importer cuts must fit them, whole characters kept.
@Suite struct ImportedTitlesFitTests {
    @Test func aLongFirstLineInDecomposedHangulIsCutToFit() throws {
        let day = try SolarDate(year: 2020, month: 5, day: 5)
        let decomposed = String(repeating: "하늘이 ", count: 50).decomposedStringWithCanonicalMapping
        #expect(decomposed.count <= EntryContent.maxTitleLength && decomposed.unicodeScalars.count > EntryContent.maxTitleLength)
        let (title, body) = DayOneImport.titleAndBody(decomposed + "\n끝", date: day)
        #expect(title.unicodeScalars.count <= 61 && title.hasSuffix("…") && body.hasPrefix(decomposed.trimmingCharacters(in: .whitespaces)))
        _ = try EntryContent(title: title, body: body, date: try LocalDateTime(iso: "2020-05-05T09:00"), childIDs: [ChildID()])
    }

    @Test func aCutKeepsWholeCharacters() {
        #expect(Validate.prefix("👨‍👩‍👧‍👦👍🏽가", scalars: 8) == "👨‍👩‍👧‍👦")
        #expect(Validate.prefix("👨‍👩‍👧‍👦👍🏽가", scalars: 9) == "👨‍👩‍👧‍👦👍🏽")
        #expect(Validate.prefix("abc", scalars: 0) == "")
    }
}
