/// A day of the calendar as the family's diary fills it.
public struct DaySummary: Hashable, Sendable {
    public let entries: Int
    public let firstPhoto: PhotoID?

    public init(entries: Int, firstPhoto: PhotoID?) {
        self.entries = entries
        self.firstPhoto = firstPhoto
    }
}
