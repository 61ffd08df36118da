// `indirect` keeps the enum one pointer wide: Swift 6.3 crashes (a double release under Swift Testing's typed-throw
// hook) when a typed error this large is thrown without it.
/// Why a date could not be made; each case carries what the person needs to correct the input.
public indirect enum CalendarError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed(String, expected: String)
    case yearOutOfRange(Int)
    case invalidMonth(Int)
    case invalidDay(year: Int, month: Int, day: Int, daysInMonth: Int)
    case invalidTime(String)
    /// Outside the KASI-derived lunar table (solar 1391-02-05 … 2050-12-31).
    case outsideLunarTable(String)
    /// Solar terms are computed and checked for 1900–2100 only.
    case outsideSolarTermYears(Int)
    /// Public holidays are encoded for 1985–2050.
    case outsideHolidayYears(Int)
    /// A lunar month that is shorter than the day asked for (day 30 of a 29-day month).
    case lunarDayMissing(year: Int, month: Int, isLeapMonth: Bool, day: Int, daysInMonth: Int)
    /// A leap-month date in a year whose leap month is another one, or that has none.
    case noSuchLeapMonth(year: Int, month: Int, leapMonth: Int?)

    public var description: String {
        switch self {
        case .malformed(let text, let expected): "'\(text)' is not a date in the form \(expected)"
        case .yearOutOfRange(let year):
            "year \(year) is outside \(SolarDate.supportedYears.lowerBound)–\(SolarDate.supportedYears.upperBound)"
        case .invalidMonth(let month): "month \(month) does not exist (1–12)"
        case .invalidDay(let year, let month, let day, let length):
            "day \(day) does not exist in \(year)-\(SolarDate.pad(month, 2)) (it has \(length) days)"
        case .invalidTime(let text): "'\(text)' is not a time in the form HH:MM (00:00–23:59)"
        case .outsideLunarTable(let text):
            "\(text) is outside the lunar calendar data (solar 1391-02-05 … 2050-12-31, lunar 1390-12-23 … 2050-11-18)"
        case .outsideSolarTermYears(let year): "solar terms are computed for 1900–2100 (got \(year))"
        case .outsideHolidayYears(let year): "public holidays are known for 1985–2050 (got \(year))"
        case .lunarDayMissing(let year, let month, let isLeapMonth, let day, let length):
            "lunar \(year)-\(SolarDate.pad(month, 2))\(isLeapMonth ? " (윤)" : "") has \(length) days: day \(day) does not exist"
        case .noSuchLeapMonth(let year, let month, let leapMonth):
            "lunar \(year) has no leap month \(month)" + (leapMonth.map { " (its leap month is \($0))" } ?? " (it has no leap month)")
        }
    }
}
