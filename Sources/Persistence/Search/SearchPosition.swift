import Diary

/// Where a page of search hits starts, on either engine: the window (matches with a document ID below `before`;
/// all when nil) and the rank in it. Both engines' search stores rank a window of the newest matches at a time.
public struct SearchPosition: Sendable {
    public var before: Int64?
    public var offset: Int

    public static let cursorID = "search"

    public init(before: Int64?, offset: Int) {
        self.before = before
        self.offset = offset
    }

    public init(_ cursor: PageCursor?) throws(ValidationError) {
        guard let cursor else {
            self.init(before: nil, offset: 0)
            return
        }
        let parts = cursor.sortKey.split(separator: ":", omittingEmptySubsequences: false)
        guard cursor.id == Self.cursorID, parts.count == 2, let before = Int64(parts[0]), before >= 0,
            let offset = Int(parts[1]), offset >= 0
        else { throw ValidationError(field: "cursor", "is not a search cursor this server gave out") }
        self.init(before: before == 0 ? nil : before, offset: offset)
    }

    public var cursor: PageCursor { PageCursor(sortKey: "\(before ?? 0):\(offset)", id: Self.cursorID) }
}
