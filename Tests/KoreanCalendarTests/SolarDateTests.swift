import Testing

@testable import KoreanCalendar

@Suite struct SolarDateTests {
    @Test(arguments: ["2024-02-29", "2000-02-29", "1391-02-05", "2050-12-31", "0001-01-01", "9999-12-31"])
    func parsesAndPrintsValidDates(_ text: String) throws {
        #expect(try SolarDate(iso: text).iso == text)
    }

    @Test(arguments: [
        ("2023-02-29", CalendarError.invalidDay(year: 2023, month: 2, day: 29, daysInMonth: 28)),
        ("1900-02-29", .invalidDay(year: 1900, month: 2, day: 29, daysInMonth: 28)),
        ("2024-13-01", .invalidMonth(13)),
        ("2024-04-31", .invalidDay(year: 2024, month: 4, day: 31, daysInMonth: 30)),
        ("0000-01-01", .yearOutOfRange(0)),
        ("2024-1-01", .malformed("2024-1-01", expected: "YYYY-MM-DD")),
        ("2024-01-01T00:00", .malformed("2024-01-01T00:00", expected: "YYYY-MM-DD")),
        ("２０２４-01-01", .malformed("２０２４-01-01", expected: "YYYY-MM-DD")),
        ("+024-01-01", .malformed("+024-01-01", expected: "YYYY-MM-DD")),
    ])
    func refusesDatesThatDoNotExist(_ text: String, _ expected: CalendarError) {
        #expect(throws: expected) { try SolarDate(iso: text) }
    }

    @Test func leapYearsFollowTheGregorianRule() {
        #expect(SolarDate.isLeapYear(2000))  // the legacy app's bug: century rule inverted
        #expect(!SolarDate.isLeapYear(1900))
        #expect(!SolarDate.isLeapYear(2100))
        #expect(SolarDate.isLeapYear(2024))
        #expect(!SolarDate.isLeapYear(2026))
    }

    @Test func julianDayNumberRoundTripsOverTheWholeRange() throws {
        var date = try SolarDate(iso: "0001-01-01")
        var jdn = date.julianDayNumber
        let end = try SolarDate(iso: "9999-12-31")
        while date < end {
            let next = try date.adding(days: 1)
            #expect(next.julianDayNumber == jdn + 1)
            #expect(next > date)
            date = next
            jdn += 1
        }
        #expect(try SolarDate(iso: "2000-01-01").julianDayNumber == 2_451_545)
    }

    @Test(arguments: [("2026-11-22", 0), ("2000-01-01", 6), ("2024-02-10", 6), ("1970-01-01", 4)])
    func weekdays(_ text: String, _ weekday: Int) throws {
        #expect(try SolarDate(iso: text).weekday == weekday)
    }

    @Test(arguments: [
        ("2024-01-31", 1, "2024-03-01"), ("2024-01-31", 2, "2024-03-31"), ("2024-02-29", 12, "2025-03-01"),
        ("2024-02-29", 48, "2028-02-29"), ("2025-12-15", 1, "2026-01-15"),
    ])
    func monthsRollForwardLikeTheCivilAct(_ start: String, _ months: Int, _ expected: String) throws {
        #expect(try SolarDate(iso: start).addingMonthsRollingForward(months).iso == expected)
    }

    @Test func clockTimesAndLocalDateTimes() throws {
        #expect(try ClockTime(iso: "23:59").iso == "23:59")
        #expect(throws: CalendarError.invalidTime("24:00")) { try ClockTime(iso: "24:00") }
        #expect(throws: CalendarError.invalidTime("9:00")) { try ClockTime(iso: "9:00") }
        let moment = try LocalDateTime(iso: "2026-11-22T02:10")
        #expect(moment.iso == "2026-11-22T02:10")
        #expect(try LocalDateTime(iso: "2026-11-21T23:59") < moment)
        #expect(throws: CalendarError.self) { try LocalDateTime(iso: "2026-11-22 02:10") }
    }

    @Test func lunarDatesCheckTheirShape() throws {
        #expect(try LunarDate(iso: "2023-02-30", isLeapMonth: true).description == "2023-02-30 (윤)")
        #expect(throws: CalendarError.invalidDay(year: 2023, month: 1, day: 31, daysInMonth: 30)) { try LunarDate(iso: "2023-01-31") }
    }

    /// Dates and times are read byte by byte first (issue 35): whatever is read writes back as the same text, every
    /// valid text is read, and texts a character away from one (a digit out of range, a sign, a space, a
    /// full-width digit, a letter) are read only when they are still exact.
    @Test func textIsReadExactlyOrNotAtAll() throws {
        var generator = SystemRandomNumberGenerator()
        let replacements = ["0", "9", "3", "-", "+", " ", "T", ":", "２", "a", "", "00"]
        for _ in 0..<3000 {
            let date = try SolarDate(julianDayNumber: Int.random(in: 1_721_426...5_373_484, using: &generator))
            let time = try ClockTime(hour: Int.random(in: 0...23, using: &generator), minute: Int.random(in: 0...59, using: &generator))
            let text = "\(date.iso)T\(time.iso)"
            #expect(try LocalDateTime(iso: text) == LocalDateTime(date: date, time: time))
            #expect(try SolarDate(iso: date.iso) == date)
            var characters = text.map(String.init)
            characters[Int.random(in: 0..<characters.count, using: &generator)] = replacements.randomElement(using: &generator) ?? ""
            let changed = characters.joined()
            if let read = try? LocalDateTime(iso: changed) { #expect(read.iso == changed) }
            let changedDate = String(changed.prefix(10))
            if let read = try? SolarDate(iso: changedDate) { #expect(read.iso == changedDate) }
        }
        #expect(throws: CalendarError.malformed("2026-1-22", expected: "YYYY-MM-DD")) { try SolarDate(iso: "2026-1-22") }
        #expect(throws: CalendarError.invalidTime("24:00")) { try LocalDateTime(iso: "2026-11-22T24:00") }
    }
}
