/// A month of the calendar page: whole weeks from Sunday to Saturday, each day with its solar and lunar date,
/// the solar term that falls on it and its holidays.
public struct MonthView: Sendable {
    public let year: Int
    public let month: Int
    /// Weeks of seven days, Sunday first; days of the neighbouring months fill the first and last week.
    public let weeks: [[Day]]

    public struct Day: Sendable {
        public let date: SolarDate
        /// nil outside the lunar table (before 1391-02-05, after 2050-12-31).
        public let lunar: LunarDate?
        public let term: SolarTermMoment?
        public let holidays: [Holiday]
        /// Whether the day belongs to the month shown (not a neighbour filling the week).
        public let isInMonth: Bool

        public var isSunday: Bool { date.weekday == 0 }
        public var isSaturday: Bool { date.weekday == 6 }
        /// Shown in red: Sundays and public holidays, substitute holidays included.
        public var isRedDay: Bool { isSunday || !holidays.isEmpty }

        /// What the calendar prints under the day: the term's name on its day, otherwise the lunar date as
        /// `month.day`, with 윤 before a leap month (`윤2.10`).
        public var caption: String {
            if let term { return term.term.koreanName }
            guard let lunar else { return "" }
            return "\(lunar.isLeapMonth ? "윤" : "")\(lunar.month).\(lunar.day)"
        }
    }

    public init(year: Int, month: Int, rules: HolidayRules = .current) throws(CalendarError) {
        let first = try SolarDate(year: year, month: month, day: 1)
        let length = SolarDate.daysInMonth(year: year, month: month)
        let start = try first.adding(days: -first.weekday)
        let cells = (first.weekday + length + 6) / 7 * 7
        var holidays: [SolarDate: [Holiday]] = [:]
        var terms: [SolarDate: SolarTermMoment] = [:]
        for y in Set([start.year, year, (try start.adding(days: cells - 1)).year]) {
            for holiday in (try? KoreanHolidays.holidays(in: y, rules: rules)) ?? [] { holidays[holiday.date, default: []].append(holiday) }
            for moment in (try? SolarTerms.moments(in: y)) ?? [] { terms[moment.seoulDate] = moment }
        }
        var days: [Day] = []
        for offset in 0..<cells {
            let date = try start.adding(days: offset)
            days.append(Day(
                date: date, lunar: try? LunarDate.from(date), term: terms[date], holidays: holidays[date] ?? [],
                isInMonth: date.month == month))
        }
        self.year = year
        self.month = month
        weeks = stride(from: 0, to: days.count, by: 7).map { Array(days[$0..<$0 + 7]) }
    }
}
