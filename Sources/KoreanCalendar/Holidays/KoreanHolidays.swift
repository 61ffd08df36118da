import Synchronization

/// Korean public holidays (관공서의 공휴일에 관한 규정) by the rules in force each year, with substitute holidays.
public enum KoreanHolidays {
    /// Years whose rules are encoded (민속의 날 of 1985 on); the lunar table ends in 2050.
    public static let supportedYears = 1985...2050

    /// The holidays of a Gregorian year in date order. Several holidays on one date are separate entries. A year's
    /// are made once for each rules and kept (the month page and the home page's notices asked on every view: 6 % of
    /// a busy month page, issue 35); the kept years are dropped past `keptAtMost`, which the supported years under
    /// a few rules never reach.
    public static func holidays(in year: Int, rules: HolidayRules = .current) throws(CalendarError) -> [Holiday] {
        guard supportedYears.contains(year) else { throw .outsideHolidayYears(year) }
        if let known = made.withLock({ $0[Year(year: year, rules: rules)] }) { return known }
        let holidays = try make(year, rules)
        made.withLock { made in
            if made.count >= keptAtMost { made.removeAll() }
            made[Year(year: year, rules: rules)] = holidays
        }
        return holidays
    }

    private struct Year: Hashable {
        let year: Int
        let rules: HolidayRules
    }

    private static let made = Mutex<[Year: [Holiday]]>([:])
    private static let keptAtMost = 512

    private static func make(_ year: Int, _ rules: HolidayRules) throws(CalendarError) -> [Holiday] {
        var holidays = solarHolidays(year, rules) + (try lunarHolidays(year)) + designated(year)
        holidays += try substitutes(year, rules, base: holidays)
        return holidays.sorted { ($0.date, $0.kind == .substitute ? 1 : 0) < ($1.date, $1.kind == .substitute ? 1 : 0) }
    }

    // MARK: Fixed dates of the solar calendar

    private static func solarHolidays(_ year: Int, _ rules: HolidayRules) -> [Holiday] {
        var list: [(Int, Int, String, String)] = []
        let newYearDays = year <= 1989 ? 3 : year <= 1998 ? 2 : 1
        for day in 1...newYearDays { list.append((1, day, day == 1 ? "신정" : "신정 연휴", "New Year's Day")) }
        list.append((3, 1, "삼일절", "Independence Movement Day"))
        if year <= 2005 { list.append((4, 5, "식목일", "Arbor Day")) }
        if let from = rules.laborDayFrom, year >= from { list.append((5, 1, "노동절", "Labour Day")) }
        list.append((5, 5, "어린이날", "Children's Day"))
        list.append((6, 6, "현충일", "Memorial Day"))
        if year <= 2007 || year >= 2026 { list.append((7, 17, "제헌절", "Constitution Day")) }
        list.append((8, 15, "광복절", "Liberation Day"))
        if (1976...1990).contains(year) { list.append((10, 1, "국군의 날", "Armed Forces Day")) }
        list.append((10, 3, "개천절", "National Foundation Day"))
        if year <= 1990 || year >= 2013 { list.append((10, 9, "한글날", "Hangul Day")) }
        list.append((12, 25, "기독탄신일", "Christmas Day"))
        return list.map { month, day, name, nameEn in
            Holiday(date: try! SolarDate(year: year, month: month, day: day), name: name, nameEn: nameEn, kind: .solar)
        }
    }

    // MARK: The lunar calendar

    private static func lunarHolidays(_ year: Int) throws(CalendarError) -> [Holiday] {
        var list: [Holiday] = []
        // 설날: lunar 1/1 of the lunar year that starts in this Gregorian year, with the day before and after
        // (three days since 1989; 1985–1988 only the day itself, as 민속의 날).
        let newYear = try SolarDate.from(try LunarDate(year: year, month: 1, day: 1))
        if year >= 1989 {
            list.append(Holiday(date: try newYear.adding(days: -1), name: "설날 연휴", nameEn: "Korean New Year's Eve", kind: .lunar))
            list.append(Holiday(date: newYear, name: "설날", nameEn: "Korean New Year", kind: .lunar))
            list.append(Holiday(date: try newYear.adding(days: 1), name: "설날 연휴", nameEn: "Korean New Year holiday", kind: .lunar))
        } else {
            list.append(Holiday(date: newYear, name: "민속의 날", nameEn: "Folklore Day", kind: .lunar))
        }
        let buddha = try SolarDate.from(try LunarDate(year: year, month: 4, day: 8))
        list.append(Holiday(date: buddha, name: year >= 2018 ? "부처님오신날" : "석가탄신일", nameEn: "Buddha's Birthday", kind: .lunar))
        let chuseok = try SolarDate.from(try LunarDate(year: year, month: 8, day: 15))
        let chuseokDays = year >= 1989 ? -1...1 : year >= 1986 ? 0...1 : 0...0
        for offset in chuseokDays {
            list.append(Holiday(
                date: try chuseok.adding(days: offset), name: offset == 0 ? "추석" : "추석 연휴",
                nameEn: offset == 0 ? "Chuseok" : "Chuseok holiday", kind: .lunar))
        }
        return list
    }

    private static func designated(_ year: Int) -> [Holiday] {
        DesignatedDays.all.filter { $0.date.hasPrefix("\(year)-") }.map {
            Holiday(date: try! SolarDate(iso: $0.date), name: $0.name, nameEn: $0.nameEn, kind: .designated)
        }
    }

    // MARK: Substitute holidays (대체공휴일)

    /// A holiday that may be replaced, when the rule covering it applies, by the first following weekday that is
    /// not itself a holiday.
    private struct Replaceable {
        let name: String
        let nameEn: String
        /// The days it occupies (three for 설날 and 추석); it is lost if any of them is lost.
        let days: [SolarDate]
        /// Whether a Saturday loses it (Sundays always do).
        let saturdayCounts: Bool
        /// Whether falling on another holiday loses it.
        let overlapCounts: Bool
    }

    private static func substitutes(_ year: Int, _ rules: HolidayRules, base: [Holiday]) throws(CalendarError) -> [Holiday] {
        var replaceable: [Replaceable] = []
        func add(_ names: [String], _ name: String, _ nameEn: String, saturday: Bool, overlap: Bool) {
            let days = base.filter { names.contains($0.name) }.map(\.date).sorted()
            if !days.isEmpty {
                replaceable.append(Replaceable(name: name, nameEn: nameEn, days: days, saturdayCounts: saturday, overlapCounts: overlap))
            }
        }
        if year >= 2014 {
            add(["설날", "설날 연휴"], "설날", "Korean New Year", saturday: false, overlap: true)
            add(["추석", "추석 연휴"], "추석", "Chuseok", saturday: false, overlap: true)
            add(["어린이날"], "어린이날", "Children's Day", saturday: true, overlap: true)
        }
        if year >= 2021 {
            // From the law of 2021-08-04: first used for 광복절 on 2021-08-16.
            for (name, nameEn) in [("삼일절", "Independence Movement Day"), ("광복절", "Liberation Day"),
                                   ("개천절", "National Foundation Day"), ("한글날", "Hangul Day")]
            where !(year == 2021 && name == "삼일절") {
                add([name], name, nameEn, saturday: true, overlap: false)
            }
        }
        if year >= 2023 {
            add(["부처님오신날"], "부처님오신날", "Buddha's Birthday", saturday: true, overlap: false)
            add(["기독탄신일"], "기독탄신일", "Christmas Day", saturday: true, overlap: false)
        }
        if year >= 2026 {
            add(["제헌절"], "제헌절", "Constitution Day", saturday: true, overlap: false)
            if let from = rules.laborDayFrom, year >= from { add(["노동절"], "노동절", "Labour Day", saturday: true, overlap: false) }
        }

        // Each lost day earns one substitute (a 추석 with one day on a Sunday and another on 개천절 earns two);
        // substitutes are given in date order, each on the first weekday that is neither a holiday nor already
        // a substitute.
        let holidayDates = Set(base.map(\.date))
        var taken = Set<SolarDate>()
        var result: [Holiday] = []
        for holiday in replaceable.sorted(by: { $0.days.last! < $1.days.last! }) {
            let lostDays = holiday.days.filter { day in
                day.weekday == 0 || (holiday.saturdayCounts && day.weekday == 6)
                    || (holiday.overlapCounts && base.contains { $0.date == day && !sameHoliday($0.name, holiday.name) })
            }
            var candidate = holiday.days.last!
            for _ in lostDays {
                repeat { candidate = try candidate.adding(days: 1) } while candidate.weekday == 0 || candidate.weekday == 6
                    || holidayDates.contains(candidate) || taken.contains(candidate)
                taken.insert(candidate)
                result.append(Holiday(
                    date: candidate, name: "대체공휴일(\(holiday.name))", nameEn: "Substitute Holiday (\(holiday.nameEn))", kind: .substitute))
            }
        }
        // 1989-03-10 … 1990-11-09: a holiday of one day on a Sunday moved to the Monday (a short-lived rule; the
        // 설날 and 추석 blocks were not extended, so 1990-01-28 gave no substitute).
        if year == 1989 || year == 1990 {
            let start = try SolarDate(year: 1989, month: 3, day: 10)
            let end = try SolarDate(year: 1990, month: 11, day: 9)
            for holiday in base where holiday.kind == .solar && holiday.date.weekday == 0 && (start...end).contains(holiday.date) {
                let monday = try holiday.date.adding(days: 1)
                if !holidayDates.contains(monday) {
                    result.append(Holiday(
                        date: monday, name: "대체공휴일(\(holiday.name))", nameEn: "Substitute Holiday (\(holiday.nameEn))", kind: .substitute))
                }
            }
        }
        return result
    }

    /// The days of one block (설날 and 설날 연휴) do not overlap each other.
    private static func sameHoliday(_ name: String, _ block: String) -> Bool { name == block || name == "\(block) 연휴" }
}
