import Foundation

/// The time, as a small struct of closures so tests can fix it: every store reads the time through the database's
/// clock, never `Date()`.
public struct Clock: Sendable {
    public var now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) { self.now = now }

    /// The system clock, truncated to whole milliseconds (what the database keeps), so an object returned
    /// from a write equals the same object read back.
    public static let live = Clock { StoredTime.truncated(Date()) }
}
