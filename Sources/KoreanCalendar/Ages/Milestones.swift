/// The days Korean families celebrate, counted from the birth (the birth day is day 1).
public enum Milestone: String, CaseIterable, Sendable {
    /// 삼칠일: day 21, when the newborn first meets the family.
    case samchil
    /// 백일: day 100.
    case baegil
    /// 200일
    case day200
    /// 첫돌: the first birthday (solar, or lunar for children whose birthday is kept in the lunar calendar).
    case firstBirthday
    /// 1000일
    case day1000

    public var koreanName: String {
        switch self {
        case .samchil: "삼칠일"
        case .baegil: "백일"
        case .day200: "200일"
        case .firstBirthday: "첫돌"
        case .day1000: "1000일"
        }
    }

    public var englishName: String {
        switch self {
        case .samchil: "21st day"
        case .baegil: "100th day"
        case .day200: "200th day"
        case .firstBirthday: "First birthday"
        case .day1000: "1000th day"
        }
    }

    /// The milestone's date for a child born on `birth` (solar). `lunarBirth`, when given, keeps the birthday in
    /// the lunar calendar: 첫돌 is then the lunar birthday of the next lunar year.
    public func date(born birth: SolarDate, lunarBirth: LunarDate? = nil) throws(CalendarError) -> SolarDate {
        switch self {
        case .samchil: try birth.adding(days: 20)
        case .baegil: try birth.adding(days: 99)
        case .day200: try birth.adding(days: 199)
        case .day1000: try birth.adding(days: 999)
        case .firstBirthday:
            if let lunarBirth { try Birthday.lunar(lunarBirth, inLunarYear: lunarBirth.year + 1) } else { Birthday.solar(birth, in: birth.year + 1) }
        }
    }
}

/// Birthdays in a later year, by the conventions of ../shared/spec/korean-calendar.md §4.
public enum Birthday {
    /// The solar birthday in `year`. A 29 February birthday is kept on 28 February in common years (the age
    /// itself ticks on 1 March; see `Age`).
    public static func solar(_ birth: SolarDate, in year: Int) -> SolarDate {
        let day = min(birth.day, SolarDate.daysInMonth(year: year, month: birth.month))
        return (try? SolarDate(year: year, month: birth.month, day: day)) ?? birth
    }

    /// The solar date of the lunar birthday in lunar year `year`: the same lunar month and day. A child born in a
    /// leap month (윤달) celebrates in the ordinary month of that number (the leap month rarely recurs); when that
    /// year's month has no day 30, day 29.
    public static func lunar(_ birth: LunarDate, inLunarYear year: Int) throws(CalendarError) -> SolarDate {
        let length = try KoreanLunarCalendar.daysInMonth(year: year, month: birth.month)
        return try SolarDate.from(try LunarDate(year: year, month: birth.month, day: min(birth.day, length)))
    }
}

/// Where the year of the sexagenary cycle (and so 띠) begins.
public enum YearBoundary: String, Sendable {
    /// 설날 (lunar 1/1): the popular reckoning, and what a child's profile shows.
    case seollal
    /// 입춘: the almanac's and saju's reckoning.
    case ipchun

    /// The cycle year a solar date belongs to. With the 입춘 boundary the 입춘 day itself counts as the new year
    /// unless `time` (Seoul civil time) says the birth came before the term's instant.
    public func year(of date: SolarDate, time: ClockTime? = nil) throws(CalendarError) -> Int {
        switch self {
        case .seollal:
            return try LunarDate.from(date).year
        case .ipchun:
            let ipchun = try SolarTerms.moments(in: date.year).first { $0.term == .beginningOfSpring }!
            let parts = SeoulTime.components(of: ipchun.instant)
            if date < parts.date { return date.year - 1 }
            if date == parts.date, let time, time.iso + ":59" < parts.time { return date.year - 1 }
            return date.year
        }
    }
}
