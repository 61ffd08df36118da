/// Why a date could not be made; each case carries what the person needs to correct the input.
public enum CalendarError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed(String, expected: String)
    case yearOutOfRange(Int)
    case invalidMonth(Int)
    case invalidDay(year: Int, month: Int, day: Int, daysInMonth: Int)
    case invalidTime(String)

    public var description: String {
        switch self {
        case .malformed(let text, let expected): "'\(text)' is not a date in the form \(expected)"
        case .yearOutOfRange(let year):
            "year \(year) is outside \(SolarDate.supportedYears.lowerBound)–\(SolarDate.supportedYears.upperBound)"
        case .invalidMonth(let month): "month \(month) does not exist (1–12)"
        case .invalidDay(let year, let month, let day, let length):
            "day \(day) does not exist in \(year)-\(SolarDate.pad(month, 2)) (it has \(length) days)"
        case .invalidTime(let text): "'\(text)' is not a time in the form HH:MM (00:00–23:59)"
        }
    }
}
