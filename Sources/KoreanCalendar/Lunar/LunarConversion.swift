/// Conversion between the solar (Gregorian) and the Korean lunar calendar over KASI's published range.
///
/// Solar dates are proleptic Gregorian throughout, as in the KASI-derived table; for the Julian dates of
/// documents before 1582-10-15 use `SolarDate.julian(year:month:day:)` first.
public enum KoreanLunarCalendar {
    /// KASI's range: solar 1391-02-05 … 2050-12-31.
    public static let solarRange = try! SolarDate(year: 1391, month: 2, day: 5)...SolarDate(year: 2050, month: 12, day: 31)
    /// The same range in lunar dates: 1390-12-23 … 2050-11-18.
    public static let lunarRange = (first: try! lunar(from: solarRange.lowerBound), last: try! lunar(from: solarRange.upperBound))

    /// The lunar date of a solar date.
    public static func lunar(from solar: SolarDate) throws(CalendarError) -> LunarDate {
        guard solarRange.contains(solar) else { throw .outsideLunarTable(solar.iso) }
        let jdn = solar.julianDayNumber
        let year = LunarYearTable.year(containing: jdn)
        let word = LunarYearTable.word(year)
        let leap = LunarYearTable.leapMonth(year)
        var offset = jdn - LunarYearTable.yearStarts[year - LunarYearTable.firstYear]
        for month in 1...12 {
            let length = LunarYearTable.monthLength(word, month: month, isLeapMonth: false)
            if offset < length { return try LunarDate(year: year, month: month, day: offset + 1) }
            offset -= length
            if month == leap {
                let leapLength = LunarYearTable.monthLength(word, month: month, isLeapMonth: true)
                if offset < leapLength { return try LunarDate(year: year, month: month, day: offset + 1, isLeapMonth: true) }
                offset -= leapLength
            }
        }
        preconditionFailure("lunar year \(year) is shorter than its start table says")
    }

    /// The solar date of a lunar date; refuses dates that do not exist (day 30 of a short month, a leap flag in a
    /// year whose leap month is another one).
    public static func solar(from lunar: LunarDate) throws(CalendarError) -> SolarDate {
        let year = lunar.year
        guard (LunarYearTable.firstYear...LunarYearTable.lastYear).contains(year) else { throw .outsideLunarTable(lunar.description) }
        let word = LunarYearTable.word(year)
        let leap = LunarYearTable.leapMonth(year)
        if lunar.isLeapMonth && leap != lunar.month { throw .noSuchLeapMonth(year: year, month: lunar.month, leapMonth: leap) }
        let length = LunarYearTable.monthLength(word, month: lunar.month, isLeapMonth: lunar.isLeapMonth)
        guard lunar.day <= length else {
            throw .lunarDayMissing(year: year, month: lunar.month, isLeapMonth: lunar.isLeapMonth, day: lunar.day, daysInMonth: length)
        }
        var offset = lunar.day - 1
        for month in 1..<lunar.month {
            offset += LunarYearTable.monthLength(word, month: month, isLeapMonth: false)
            if month == leap { offset += LunarYearTable.monthLength(word, month: month, isLeapMonth: true) }
        }
        if lunar.isLeapMonth { offset += LunarYearTable.monthLength(word, month: lunar.month, isLeapMonth: false) }
        let solar = try SolarDate(julianDayNumber: LunarYearTable.yearStarts[year - LunarYearTable.firstYear] + offset)
        guard solarRange.contains(solar) else { throw .outsideLunarTable(lunar.description) }
        return solar
    }

    /// The leap month (윤달) of a lunar year, or nil.
    public static func leapMonth(in year: Int) throws(CalendarError) -> Int? {
        guard (LunarYearTable.firstYear...LunarYearTable.lastYear).contains(year) else { throw .outsideLunarTable(String(year)) }
        return LunarYearTable.leapMonth(year)
    }

    /// 29 or 30: the length of a lunar month.
    public static func daysInMonth(year: Int, month: Int, isLeapMonth: Bool = false) throws(CalendarError) -> Int {
        guard (LunarYearTable.firstYear...LunarYearTable.lastYear).contains(year) else { throw .outsideLunarTable(String(year)) }
        if isLeapMonth && LunarYearTable.leapMonth(year) != month {
            throw .noSuchLeapMonth(year: year, month: month, leapMonth: LunarYearTable.leapMonth(year))
        }
        return LunarYearTable.monthLength(LunarYearTable.word(year), month: month, isLeapMonth: isLeapMonth)
    }
}

extension LunarDate {
    /// The lunar date of a solar date (KASI range).
    public static func from(_ solar: SolarDate) throws(CalendarError) -> LunarDate { try KoreanLunarCalendar.lunar(from: solar) }
}

extension SolarDate {
    /// The solar date of a lunar date (KASI range).
    public static func from(_ lunar: LunarDate) throws(CalendarError) -> SolarDate { try KoreanLunarCalendar.solar(from: lunar) }

    /// A date given in the Julian calendar (as documents before the 1582 reform are), as a proleptic Gregorian date.
    public static func julian(year: Int, month: Int, day: Int) throws(CalendarError) -> SolarDate {
        guard (1...12).contains(month) else { throw .invalidMonth(month) }
        let length = month == 2 ? (year % 4 == 0 ? 29 : 28) : SolarDate.daysInMonth(year: 2001, month: month)
        guard (1...length).contains(day) else { throw .invalidDay(year: year, month: month, day: day, daysInMonth: length) }
        let a = (14 - month) / 12
        let y = year + 4800 - a
        let m = month + 12 * a - 3
        return try SolarDate(julianDayNumber: day + (153 * m + 2) / 5 + 365 * y + y / 4 - 32083)
    }
}
