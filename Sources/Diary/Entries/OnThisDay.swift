import KoreanCalendar

/// "On this day": the days of earlier years that share today's date — by the solar calendar, and optionally by the
/// lunar calendar (the same lunar month and day; a leap month matches its ordinary month, day 30 only where it exists).
public struct OnThisDay: Hashable, Sendable {
    public let date: SolarDate
    /// `MM-DD` of the solar date, and `02-29` too on 28 February of a common year.
    public let solarMonthDays: [String]
    /// Solar dates of the same lunar month/day in the earlier years (empty unless asked for).
    public let lunarDates: [SolarDate]

    /// How many years back the lunar dates go: longer than any childhood.
    public static let lunarYearsBack = 100

    public init(date: SolarDate, includeLunar: Bool) {
        self.date = date
        var monthDays = [String(date.iso.dropFirst(5))]
        if date.month == 2, date.day == 28, !SolarDate.isLeapYear(date.year) { monthDays.append("02-29") }
        solarMonthDays = monthDays
        guard includeLunar, let lunar = try? LunarDate.from(date) else {
            lunarDates = []
            return
        }
        lunarDates = (1...Self.lunarYearsBack).compactMap { back -> SolarDate? in
            guard let day = try? LunarDate(year: lunar.year - back, month: lunar.month, day: lunar.day) else { return nil }
            return try? SolarDate.from(day)
        }
    }
}
