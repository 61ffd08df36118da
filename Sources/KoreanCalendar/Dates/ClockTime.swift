/// A wall-clock time of day to the minute, `HH:MM`, with no date and no time zone.
public struct ClockTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int

    public init(hour: Int, minute: Int) throws(CalendarError) {
        guard (0...23).contains(hour), (0...59).contains(minute) else {
            throw .invalidTime("\(hour):\(minute)")
        }
        self.hour = hour
        self.minute = minute
    }

    /// Parses `HH:MM` (24-hour clock).
    public init(iso text: some StringProtocol) throws(CalendarError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { throw .invalidTime(String(text)) }
        self.hour = hour
        self.minute = minute
    }

    public var iso: String { "\(SolarDate.pad(hour, 2)):\(SolarDate.pad(minute, 2))" }
    public var description: String { iso }

    public static func < (lhs: ClockTime, rhs: ClockTime) -> Bool {
        (lhs.hour, lhs.minute) < (rhs.hour, rhs.minute)
    }
}

/// A civil date and time as a clock on the wall showed it (`YYYY-MM-DDTHH:MM`), without a time zone.
/// Its text form sorts in time order, which the store relies on for the timeline.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let date: SolarDate
    public let time: ClockTime

    public init(date: SolarDate, time: ClockTime) {
        self.date = date
        self.time = time
    }

    public init(iso text: some StringProtocol) throws(CalendarError) {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw .malformed(String(text), expected: "YYYY-MM-DDTHH:MM") }
        self.date = try SolarDate(iso: parts[0])
        self.time = try ClockTime(iso: parts[1])
    }

    public var iso: String { "\(date.iso)T\(time.iso)" }
    public var description: String { iso }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        (lhs.date, lhs.time) < (rhs.date, rhs.time)
    }
}
