import Testing

@testable import KoreanCalendar

/// Cases from ../shared/spec/korean-calendar.md §6; 1990–2050 is compared with holidays.KR by
/// tests/test_calendar_oracles.py.
@Suite struct HolidayTests {
    func dates(_ year: Int, rules: HolidayRules = .current) throws -> [String: [String]] {
        Dictionary(grouping: try KoreanHolidays.holidays(in: year, rules: rules), by: \.date.iso).mapValues { $0.map(\.name) }
    }

    @Test(arguments: [
        ("2014-09-10", "대체공휴일(추석)"),  // the first substitute holiday
        ("2021-08-16", "대체공휴일(광복절)"), ("2021-10-04", "대체공휴일(개천절)"), ("2021-10-11", "대체공휴일(한글날)"),
        ("2023-05-29", "대체공휴일(부처님오신날)"), ("2026-03-02", "대체공휴일(삼일절)"), ("2024-02-12", "대체공휴일(설날)"),
        ("2025-05-06", "대체공휴일(어린이날)"), ("1989-10-02", "대체공휴일(국군의 날)"),
    ])
    func substituteHolidays(_ date: String, _ name: String) throws {
        let year = Int(date.prefix(4))!
        #expect(try dates(year)[date]?.contains(name) == true)
    }

    @Test func lunarHolidaysFollowTheKoreanCalendar() throws {
        #expect(try dates(2027)["2027-02-07"] == ["설날"])  // China: Feb 6
        #expect(try dates(2040)["2040-09-21"] == ["추석"])  // China: Sep 20
        #expect(try dates(2023)["2023-05-27"] == ["부처님오신날"])
        #expect(try dates(2000)["2000-02-05"] == ["설날"])
    }

    @Test func rulesInForceEachYear() throws {
        #expect(try dates(2005)["2005-04-05"] == ["식목일"])
        #expect(try dates(2006)["2006-04-05"] == nil)
        #expect(try dates(2012)["2012-10-09"] == nil)  // 한글날 not a holiday 1991–2012
        #expect(try dates(2013)["2013-10-09"] == ["한글날"])
        #expect(try dates(2025)["2025-07-17"] == nil)  // 제헌절 again from 2026
        #expect(try dates(2026)["2026-07-17"] == ["제헌절"])
        #expect(try dates(1995)["1995-01-02"] == ["신정 연휴"])
        // Two lost days of one 추석, two substitutes.
        let chuseok2036 = try KoreanHolidays.holidays(in: 2036).filter { $0.isSubstitute && $0.name == "대체공휴일(추석)" }
        #expect(chuseok2036.map(\.date.iso) == ["2036-10-06", "2036-10-07"])
    }

    @Test func laborDayIsASwitch() throws {
        #expect(try dates(2026)["2026-05-01"] == ["노동절"])
        #expect(try dates(2026, rules: HolidayRules(laborDayFrom: nil))["2026-05-01"] == nil)
        #expect(try dates(2025)["2025-05-01"] == nil)
        #expect(throws: CalendarError.outsideHolidayYears(2051)) { try KoreanHolidays.holidays(in: 2051) }
    }
}
