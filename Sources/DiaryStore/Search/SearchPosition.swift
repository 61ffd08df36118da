import Diary
import Persistence

/// Where a page of search hits starts, on either engine: the window (matches with a document ID below `before`;
/// all when nil) and the rank in it. Both engines' search stores rank a window of the newest matches at a time.
package struct SearchPosition: Sendable {
    package var before: Int64?
    package var offset: Int

    package static let cursorID = "search"

    package init(before: Int64?, offset: Int) {
        self.before = before
        self.offset = offset
    }

    package init(_ cursor: PageCursor?) throws(ValidationError) {
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

    package var cursor: PageCursor { PageCursor(sortKey: "\(before ?? 0):\(offset)", id: Self.cursorID) }
}
