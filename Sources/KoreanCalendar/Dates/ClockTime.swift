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

    public var iso: String {
        String(unsafeUninitializedCapacity: 5) { bytes in
            ISODigits.write(self, into: bytes, at: 0)
            return 5
        }
    }

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
        if let exact = Self.exact(text) {
            self = exact
            return
        }
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw .malformed(String(text), expected: "YYYY-MM-DDTHH:MM") }
        self.date = try SolarDate(iso: parts[0])
        self.time = try ClockTime(iso: parts[1])
    }

    /// `YYYY-MM-DDTHH:MM` read byte by byte, or nil for anything else, which then goes the long way (and fails with
    /// its message): every entry a page shows carries one, and splitting and checking substrings was 7 % of a busy
    /// timeline's time (issue 35).
    private static func exact(_ text: some StringProtocol) -> LocalDateTime? {
        var text = String(text)
        return text.withUTF8 { bytes in
            guard bytes.count == 16, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
                bytes[13] == UInt8(ascii: ":"),
                let year = ISODigits.number(bytes, at: 0, count: 4), let month = ISODigits.number(bytes, at: 5, count: 2),
                let day = ISODigits.number(bytes, at: 8, count: 2), let hour = ISODigits.number(bytes, at: 11, count: 2),
                let minute = ISODigits.number(bytes, at: 14, count: 2),
                let date = try? SolarDate(year: year, month: month, day: day), let time = try? ClockTime(hour: hour, minute: minute)
            else { return nil }
            return LocalDateTime(date: date, time: time)
        }
    }

    /// Written byte by byte, as `SolarDate.iso` (a timeline's cards and a month's days each write theirs).
    public var iso: String {
        String(unsafeUninitializedCapacity: 16) { bytes in
            ISODigits.write(date, into: bytes, at: 0)
            bytes[10] = UInt8(ascii: "T")
            ISODigits.write(time, into: bytes, at: 11)
            return 16
        }
    }
    public var description: String { iso }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        (lhs.date, lhs.time) < (rhs.date, rhs.time)
    }
}

/// Fixed-width ASCII digits of an ISO date or time, read from its UTF-8 bytes.
enum ISODigits {
    /// The number that `count` digits from `index` write, or nil when one of them is not a digit.
    static func number(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, count: Int) -> Int? {
        guard index >= 0, count > 0, index + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<(index + count)] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// `value`'s last `count` decimal digits, zero-padded, at `index`.
    static func write(_ value: Int, count: Int, into bytes: UnsafeMutableBufferPointer<UInt8>, at index: Int) {
        var rest = value
        for position in stride(from: index + count - 1, through: index, by: -1) {
            bytes[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }

    /// `YYYY-MM-DD` in 10 bytes at `index` (a supported year has four digits).
    static func write(_ date: SolarDate, into bytes: UnsafeMutableBufferPointer<UInt8>, at index: Int) {
        write(date.year, count: 4, into: bytes, at: index)
        bytes[index + 4] = UInt8(ascii: "-")
        write(date.month, count: 2, into: bytes, at: index + 5)
        bytes[index + 7] = UInt8(ascii: "-")
        write(date.day, count: 2, into: bytes, at: index + 8)
    }

    /// `HH:MM` in 5 bytes at `index`.
    static func write(_ time: ClockTime, into bytes: UnsafeMutableBufferPointer<UInt8>, at index: Int) {
        write(time.hour, count: 2, into: bytes, at: index)
        bytes[index + 2] = UInt8(ascii: ":")
        write(time.minute, count: 2, into: bytes, at: index + 3)
    }
}
