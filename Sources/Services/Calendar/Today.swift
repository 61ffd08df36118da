import Foundation
import KoreanCalendar
import Persistence

/// Today's date on the family's wall calendar (Asia/Seoul), for ages and milestones.
public struct Today: Sendable {
    public let clock: Clock

    public init(clock: Clock) { self.clock = clock }

    public static let timeZone = TimeZone(identifier: "Asia/Seoul")!

    public func date() -> SolarDate { now().date }

    /// The date and time on the wall clock in Seoul: a new entry's default.
    public func now() -> LocalDateTime { Self.local(clock.now()) }

    /// An instant as the wall calendar and clock in Seoul show it.
    public static func local(_ instant: Date) -> LocalDateTime {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        // The Gregorian calendar always yields a valid day and time.
        return LocalDateTime(
            date: try! SolarDate(year: parts.year!, month: parts.month!, day: parts.day!),
            time: try! ClockTime(hour: parts.hour!, minute: parts.minute!))
    }
}
