import Diary
import KoreanCalendar
import Testing

@testable import WebApp

/// A form's mistakes in the page's language: every rule has Korean words of its own (no English left in them) and
/// English ones; a field is named by its label; a message the domain has no rule for keeps its English words.
@Suite struct FormErrorTests {
    static let rules: [ValidationError.Rule] = [
        .empty, .tooLong(maximum: 200, got: 201), .containsNUL, .tooManyMarks(maximum: 30), .invisible(0x3164), .mixedScripts, .lookAlike, .notANumber, .notPositive, .noChild, .residentNumberForm,
        .passwordLength("must be at least 8 characters"), .notCurrentPassword, .latitudeRange(91), .longitudeRange(-181), .halfAPosition,
        .tooManyTags(maximum: 20, got: 21), .notATag("a,b", maximum: 50),
        .implausible(value: 150, unit: "kg", kind: "weight", maximum: 500), .monthRange(got: 13), .dayRange(maximum: 29, lunar: false, month: 2, got: 30),
        .calendar(.malformed("x", expected: "YYYY-MM-DD")), .calendar(.yearOutOfRange(1800)), .calendar(.invalidMonth(13)),
        .calendar(.invalidDay(year: 2025, month: 2, day: 29, daysInMonth: 28)), .calendar(.invalidTime("25:00")),
        .calendar(.outsideLunarTable("2051-01-01")), .calendar(.outsideSolarTermYears(2200)), .calendar(.outsideHolidayYears(1900)),
        .calendar(.lunarDayMissing(year: 2025, month: 1, isLeapMonth: false, day: 30, daysInMonth: 29)),
        .calendar(.noSuchLeapMonth(year: 2024, month: 3, leapMonth: nil)),
    ]

    @Test(arguments: rules) func everyRuleIsSaidInKoreanAndEnglish(rule: ValidationError.Rule) {
        let korean = ValidationError(field: "title", rule).text(.korean)
        let english = ValidationError(field: "title", rule).text(.english)
        #expect(korean.hasPrefix("제목: ") && english.hasPrefix("Title: "))
        #expect(korean.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) }, "\(korean)")
        // Korean words carry no English sentence (a format such as YYYY-MM-DD or NUL may stay).
        #expect(!korean.contains(" must ") && !korean.contains(" is ") && !korean.contains(" not "), "\(korean)")
        #expect(!english.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) }, "\(english)")
        // The API's English message is the rule's own.
        #expect(!ValidationError(field: "title", rule).message.isEmpty)
    }

    @Test func aLeapMonthTheYearLacksIsNamedWithTheOneItHas() {
        let error = ValidationError(field: "isLeapMonth", .calendar(.noSuchLeapMonth(year: 2025, month: 3, leapMonth: 6)))
        #expect(error.text(.korean) == "윤달: 음력 2025년에는 윤3월이 없습니다 (그해 윤달은 윤6월).")
        #expect(error.description == "isLeapMonth: lunar 2025 has no leap month 3 (its leap month is 6)")
    }

    @Test func aMessageWithoutARuleKeepsItsEnglishWords() {
        let error = ValidationError(field: "isLeapMonth", "only a lunar anniversary can be in a leap month")
        #expect(error.text(.korean) == "윤달: 입력한 값을 확인해 주세요. (only a lunar anniversary can be in a leap month)")
        #expect(error.text(.english) == "Leap month: only a lunar anniversary can be in a leap month")
        #expect(ValidationError(field: "somethingNew", "is odd").text(.korean).hasPrefix("somethingNew: "))
    }
}
