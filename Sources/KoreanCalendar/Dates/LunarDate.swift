/// A day in the Korean lunisolar calendar (음력). `isLeapMonth` marks 윤달, the intercalary month that repeats
/// the number of the month before it.
///
/// This type checks only the shape of a date (month 1–12, day 1–30). Whether the date exists in a given year,
/// and its solar equivalent, come from the KASI-derived conversion table.
public struct LunarDate: Hashable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int
    public let isLeapMonth: Bool

    public init(year: Int, month: Int, day: Int, isLeapMonth: Bool = false) throws(CalendarError) {
        guard SolarDate.supportedYears.contains(year) else { throw .yearOutOfRange(year) }
        guard (1...12).contains(month) else { throw .invalidMonth(month) }
        guard (1...30).contains(day) else { throw .invalidDay(year: year, month: month, day: day, daysInMonth: 30) }
        self.year = year
        self.month = month
        self.day = day
        self.isLeapMonth = isLeapMonth
    }

    /// Parses `YYYY-MM-DD` as a lunar date.
    public init(iso text: some StringProtocol, isLeapMonth: Bool = false) throws(CalendarError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { throw .malformed(String(text), expected: "YYYY-MM-DD") }
        try self.init(year: year, month: month, day: day, isLeapMonth: isLeapMonth)
    }

    public var iso: String {
        "\(SolarDate.pad(year, 4))-\(SolarDate.pad(month, 2))-\(SolarDate.pad(day, 2))"
    }

    public var description: String { isLeapMonth ? "\(iso) (윤)" : iso }
}
