import Diary
import Foundation
import KoreanCalendar

/// Timestamps as the database keeps them: UTC `YYYY-MM-DD HH:MM:SS.SSS` (SQLite's own date format, so its date
/// functions work and text order is time order), converted with integer milliseconds both ways.
///
/// GRDB's default `Date` conversion goes through a `DateFormatter`, which can turn 0.123 s into "…​.122"; a date
/// read back would then differ from the one written. Whole milliseconds make the round trip exact.
public enum StoredTime {
    static let millisecondsPerDay = 86_400_000
    static let unixEpochJulianDay = 2_440_588

    public static func text(_ date: Date) -> String {
        let milliseconds = Int((date.timeIntervalSince1970 * 1000).rounded())
        let (days, inDay) = floorDivision(milliseconds, millisecondsPerDay)
        let day = (try? SolarDate(julianDayNumber: days + unixEpochJulianDay))?.iso ?? "0001-01-01"
        let (seconds, millis) = (inDay / 1000, inDay % 1000)
        return "\(day) \(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2)).\(pad(millis, 3))"
    }

    public static func date(_ text: String) -> Date? {
        if let date = exactDate(text) { return date }
        let parts = text.split(separator: " ")
        guard parts.count == 2, let day = try? SolarDate(iso: parts[0]) else { return nil }
        let clock = parts[1].split(whereSeparator: { $0 == ":" || $0 == "." }).compactMap { Int($0) }
        // The text may come from a restored backup: out-of-range parts are no time, never an overflow.
        guard clock.count == 4, (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2]),
            (0...999).contains(clock[3])
        else { return nil }
        let milliseconds = (day.julianDayNumber - unixEpochJulianDay) * millisecondsPerDay
            + ((clock[0] * 60 + clock[1]) * 60 + clock[2]) * 1000 + clock[3]
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// `YYYY-MM-DD HH:MM:SS.SSS` exactly, read digit by digit: every row a page shows carries two, and splitting
    /// strings was 8 % of a busy timeline's time (issue 35). Anything else goes the long way.
    static func exactDate(_ text: String) -> Date? {
        let utf8 = text.utf8
        return utf8.withContiguousStorageIfAvailable { bytes -> Date? in
            guard bytes.count == 23, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x20, bytes[13] == 0x3A, bytes[16] == 0x3A,
                bytes[19] == 0x2E
            else { return nil }
            func number(_ from: Int, _ count: Int) -> Int? {
                var value = 0
                for index in from..<(from + count) {
                    let digit = Int(bytes[index]) - 0x30
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
                let minute = number(14, 2), let second = number(17, 2), let millisecond = number(20, 3),
                let date = try? SolarDate(year: year, month: month, day: day), hour <= 23, minute <= 59, second <= 60
            else { return nil }
            let milliseconds = (date.julianDayNumber - unixEpochJulianDay) * millisecondsPerDay
                + ((hour * 60 + minute) * 60 + second) * 1000 + millisecond
            return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        } ?? nil
    }

    /// The time as the database will hold it: what `Clock` hands out, so objects compare equal after a round trip.
    public static func truncated(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }

    private static func floorDivision(_ a: Int, _ b: Int) -> (Int, Int) {
        let quotient = a >= 0 ? a / b : -((-a + b - 1) / b)
        return (quotient, a - quotient * b)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension Date {
    /// This date in the database's timestamp format.
    public var stored: String { StoredTime.text(self) }
}
