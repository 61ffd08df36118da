import KoreanCalendar
import Testing

@testable import Diary

/// Splitting a text diary at its date headings.
@Suite struct TextDiaryTests {
    @Test(arguments: [
        "2010년 8월 15일", "2010년 8월 15일 일요일", "2010.8.15", "2010. 8. 15.", "2010-08-15", "# 2010-08-15", "## 2010/08/15 (일)",
        "2010.08.15 Sun", "  2010-8-15  ",
    ])
    func headings(_ heading: String) throws {
        let (days, preamble) = try TextDiary.days(in: "\(heading)\n광복절\n태극기", fileName: "a.txt")
        #expect(days == [TextDiary.Day(date: try SolarDate(iso: "2010-08-15"), title: "광복절", body: "광복절\n태극기", line: 1)])
        #expect(preamble == nil)
    }

    @Test func textIsNotAHeading() throws {
        let (days, preamble) = try TextDiary.days(
            in: "머리말\n2010-08-15\n2010년 8월 15일에 있었던 일은\n\n2010-08-16\n", fileName: "a.txt")
        #expect(days.map(\.date.iso) == ["2010-08-15", "2010-08-16"])
        #expect(days[0].body == "2010년 8월 15일에 있었던 일은" && days[1].title == "2010-08-16" && days[1].line == 5)
        #expect(preamble == "머리말")
    }

    @Test func aFileWithoutHeadingsIsDatedByItsName() throws {
        #expect(try TextDiary.days(in: "눈", fileName: "2013-01-02 일기.txt").days.map(\.date.iso) == ["2013-01-02"])
        #expect(throws: TextDiary.Failure.noDate(file: "notes.txt")) { try TextDiary.days(in: "눈", fileName: "notes.txt") }
        #expect(throws: TextDiary.Failure.badDate(file: "a.txt", line: 2, text: "2010년 2월 30일")) {
            try TextDiary.days(in: "\n2010년 2월 30일\n", fileName: "a.txt")
        }
    }
}
