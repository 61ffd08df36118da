import Testing

@testable import KoreanCalendar

/// Fixed cases from ../shared/spec/korean-calendar.md §1; every day of the range is checked against the
/// korean-lunar-calendar oracle by tests/test_calendar_oracles.py.
@Suite struct LunarConversionTests {
    // Where Korea and China differ (Foundation's .chinese calendar follows China), and classic port bugs.
    @Test(arguments: [
        ("1997-02-08", "1997-01-01", false),  // 설날 1997: Korea Feb 8, China Feb 7
        ("2027-02-07", "2027-01-01", false),  // 설날 2027: Korea Feb 7, China Feb 6
        ("2028-01-27", "2028-01-01", false),  // 설날 2028: Korea Jan 27, China Jan 26
        ("2040-09-21", "2040-08-15", false),  // 추석 2040: Korea Sep 21, China Sep 20
        ("2012-05-28", "2012-04-08", false),  // 부처님오신날 2012
        ("2023-05-27", "2023-04-08", false),  // 부처님오신날 2023 (China: May 26)
        ("2024-02-10", "2024-01-01", false),  // 설날 2024
        ("2000-03-01", "2000-01-26", false),  // 2000 is a Gregorian leap year
        ("2023-03-22", "2023-02-01", true),  // the leap second month of 2023
        ("1391-02-05", "1390-12-23", false),  // first day of the range
        ("2050-12-31", "2050-11-18", false),  // last day of the range
    ])
    func knownDates(_ solarText: String, _ lunarText: String, _ leap: Bool) throws {
        let solar = try SolarDate(iso: solarText)
        let lunar = try LunarDate(iso: lunarText, isLeapMonth: leap)
        #expect(try LunarDate.from(solar) == lunar)
        #expect(try SolarDate.from(lunar) == solar)
    }

    @Test func leapMonthsAreKoreas() throws {
        #expect(try KoreanLunarCalendar.leapMonth(in: 2012) == 3)  // China: 4
        #expect(try KoreanLunarCalendar.leapMonth(in: 2017) == 5)  // China: 6
        #expect(try KoreanLunarCalendar.leapMonth(in: 2023) == 2)
        #expect(try KoreanLunarCalendar.leapMonth(in: 2024) == nil)
    }

    @Test func datesThatDoNotExistAreRefused() throws {
        #expect(throws: CalendarError.noSuchLeapMonth(year: 2024, month: 2, leapMonth: nil)) {
            try SolarDate.from(try LunarDate(year: 2024, month: 2, day: 1, isLeapMonth: true))
        }
        #expect(throws: CalendarError.noSuchLeapMonth(year: 2023, month: 3, leapMonth: 2)) {
            try SolarDate.from(try LunarDate(year: 2023, month: 3, day: 1, isLeapMonth: true))
        }
        let short = try KoreanLunarCalendar.daysInMonth(year: 2024, month: 1)
        if short == 29 {
            #expect(throws: CalendarError.self) { try SolarDate.from(try LunarDate(year: 2024, month: 1, day: 30)) }
        }
        #expect(throws: CalendarError.self) { try LunarDate.from(try SolarDate(iso: "2051-01-01")) }
        #expect(throws: CalendarError.self) { try LunarDate.from(try SolarDate(iso: "1391-02-04")) }
        #expect(throws: CalendarError.self) { try SolarDate.from(try LunarDate(iso: "2050-11-19")) }
    }

    @Test func roundTripsEveryDayOfTheRange() throws {
        var solar = KoreanLunarCalendar.solarRange.lowerBound
        var previous: LunarDate?
        while solar <= KoreanLunarCalendar.solarRange.upperBound {
            let lunar = try LunarDate.from(solar)
            #expect(try SolarDate.from(lunar) == solar)
            if let previous, lunar.day != 1 { #expect(lunar.day == previous.day + 1 && lunar.month == previous.month) }
            previous = lunar
            solar = try solar.adding(days: 1)
        }
    }

    @Test func julianDatesOfOldDocuments() throws {
        // 1582-10-04 (Julian) was followed by 1582-10-15 (Gregorian).
        #expect(try SolarDate.julian(year: 1582, month: 10, day: 4).adding(days: 1) == SolarDate(iso: "1582-10-15"))
        #expect(try SolarDate.julian(year: 1500, month: 2, day: 29).iso == "1500-03-10")
        #expect(throws: CalendarError.self) { try SolarDate.julian(year: 1501, month: 2, day: 29) }
    }

    @Test(arguments: [
        ("2024-02-10", "갑진", "병인", "갑진"), ("2000-01-01", "기묘", "병자", "무오"), ("1984-02-02", "갑자", "병인", "병인"),
        ("2023-03-22", "계묘", "을묘", "기묘"),  // leap month 2 takes month 2's 간지
    ])
    func ganji(_ solarText: String, _ year: String, _ month: String, _ day: String) throws {
        let solar = try SolarDate(iso: solarText)
        let ganji = Ganji.of(try LunarDate.from(solar), solar: solar)
        #expect(ganji.year.korean == year)
        #expect(ganji.month.korean == month)
        #expect(ganji.day.korean == day)
    }

    @Test func dangiAndHanja() {
        #expect(Dangi.year(lunarYear: 2026) == 4359)
        #expect(Ganji.year(2024).hanja == "甲辰")
    }
}
