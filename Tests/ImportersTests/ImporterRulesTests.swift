import Diary
import Foundation
import KoreanCalendar
import Testing

@testable import Importers

/// The small rules the importers live by, without files: the legacy app's date strings and anniversaries, and Day
/// One's text.
@Suite struct ImporterRulesTests {
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
