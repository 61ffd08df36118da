/// A day in the proleptic Gregorian calendar (양력), with no time and no time zone.
///
/// Stored and exchanged as `YYYY-MM-DD`. Day arithmetic goes through the Julian Day Number, so adding days
/// and measuring spans never touch Foundation's time-zone-dependent `Calendar`.
public struct SolarDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Supported years; wide enough for every historical record and every future milestone.
    public static let supportedYears = 1...9999

    public init(year: Int, month: Int, day: Int) throws(CalendarError) {
        guard Self.supportedYears.contains(year) else { throw .yearOutOfRange(year) }
        guard (1...12).contains(month) else { throw .invalidMonth(month) }
        let length = SolarDate.daysInMonth(year: year, month: month)
        guard (1...length).contains(day) else {
            throw .invalidDay(year: year, month: month, day: day, daysInMonth: length)
        }
        self.year = year
        self.month = month
        self.day = day
    }

    private init(unchecked year: Int, _ month: Int, _ day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD` (four-digit year, two-digit month and day).
    public init(iso text: some StringProtocol) throws(CalendarError) {
        var copy = String(text)
        let exact = copy.withUTF8 { bytes -> SolarDate? in
            // Byte by byte first (pages read thousands); anything else the long way, with its message.
            guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
                let year = ISODigits.number(bytes, at: 0, count: 4), let month = ISODigits.number(bytes, at: 5, count: 2),
                let day = ISODigits.number(bytes, at: 8, count: 2)
            else { return nil }
            return try? SolarDate(year: year, month: month, day: day)
        }
        if let exact {
            self = exact
            return
        }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else { throw .malformed(String(text), expected: "YYYY-MM-DD") }
        try self.init(year: year, month: month, day: day)
    }

    /// Byte by byte: a month page writes one for each of its 42 days (interpolating padded numbers was 0.6 % of a
    /// busy month page). Ten bytes: Swift keeps the string inline, without an allocation.
    public var iso: String {
        String(unsafeUninitializedCapacity: 10) { bytes in
            ISODigits.write(self, into: bytes, at: 0)
            return 10
        }
    }

    public var description: String { iso }

    public static func < (lhs: SolarDate, rhs: SolarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Julian Day Number of this date (the day count astronomers use; 2000-01-01 is 2451545).
    public var julianDayNumber: Int {
        // Fliegel & Van Flandern, integer form for the proleptic Gregorian calendar.
        let a = (14 - month) / 12
        let y = year + 4800 - a
        let m = month + 12 * a - 3
        return day + (153 * m + 2) / 5 + 365 * y + y / 4 - y / 100 + y / 400 - 32045
    }

    public init(julianDayNumber jdn: Int) throws(CalendarError) {
        let a = jdn + 32044
        let b = (4 * a + 3) / 146097
        let c = a - 146097 * b / 4
        let d = (4 * c + 3) / 1461
        let e = c - 1461 * d / 4
        let m = (5 * e + 2) / 153
        let day = e - (153 * m + 2) / 5 + 1
        let month = m + 3 - 12 * (m / 10)
        let year = 100 * b + d - 4800 + m / 10
        try self.init(year: year, month: month, day: day)
    }

    /// The date `days` later (or earlier, when negative).
    public func adding(days: Int) throws(CalendarError) -> SolarDate {
        try SolarDate(julianDayNumber: julianDayNumber + days)
    }

    /// Whole days from `self` to `other` (positive when `other` is later).
    public func days(until other: SolarDate) -> Int {
        other.julianDayNumber - julianDayNumber
    }

    /// The same day `months` later; a day that month lacks (31 April, 29 February) rolls to the 1st of the month after,
    /// the day a period measured in months is complete under the Korean Civil Act (민법 제160조).
    public func addingMonthsRollingForward(_ months: Int) -> SolarDate {
        let index = year * 12 + (month - 1) + months
        let newYear = index / 12
        let newMonth = index % 12 + 1
        if day <= SolarDate.daysInMonth(year: newYear, month: newMonth) {
            return SolarDate(unchecked: newYear, newMonth, day)
        }
        return newMonth == 12 ? SolarDate(unchecked: newYear + 1, 1, 1) : SolarDate(unchecked: newYear, newMonth + 1, 1)
    }

    /// Day of the week, 0 = Sunday … 6 = Saturday.
    public var weekday: Int { (julianDayNumber + 1) % 7 }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
