import DiaryStore
import Foundation
import KoreanCalendar

/// Today's date on the family's wall calendar (Asia/Seoul), for ages and milestones.
public struct Today: Sendable {
    let clock: Clock

    public init(clock: Clock) { self.clock = clock }

    static let timeZone = TimeZone(identifier: "Asia/Seoul")!

    public func date() -> SolarDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Self.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: clock.now())
        // The Gregorian calendar always yields a valid day.
        return try! SolarDate(year: parts.year!, month: parts.month!, day: parts.day!)
    }
}
