import Diary
import Foundation
import GRDB
import Persistence

/// Keyset paging over `(sortKey, id)`: fetch one row more than asked to learn whether a next page exists. The SQL is
/// the same on both engines (PostgreSQL's stores wrap this in `PostgresKeysetPage`).
package struct KeysetPage: Sendable {
    /// The SQL expression the list is ordered by (a column, or an expression over columns).
    package let sortKey: String
    package let descending: Bool
    package let cursor: PageCursor?
    package let limit: Int

    package init(sortKey: String, descending: Bool, cursor: PageCursor?, limit: Int) {
        self.sortKey = sortKey
        self.descending = descending
        self.cursor = cursor
        self.limit = limit
    }

    /// `AND (sortKey, id) < (?, ?)` (or `>`), empty on the first page.
    package var condition: String {
        guard cursor != nil else { return "" }
        return " AND (\(sortKey), id) \(descending ? "<" : ">") (?, ?)"
    }

    var arguments: StatementArguments {
        guard let cursor else { return [] }
        return [cursor.sortKey, cursor.id]
    }

    package var orderAndLimit: String {
        let direction = descending ? "DESC" : "ASC"
        return " ORDER BY \(sortKey) \(direction), id \(direction) LIMIT \(limit + 1)"
    }

    /// Trims the extra row and makes the next cursor from the last row kept.
    func split(_ rows: [Row]) throws -> (rows: ArraySlice<Row>, next: PageCursor?) {
        let kept = rows.prefix(limit)
        guard rows.count > limit, let last = kept.last else { return (kept, nil) }
        return (kept, PageCursor(sortKey: try last.decode(String.self, forColumn: "pageKey"), id: try last.decode(forColumn: "id")))
    }
}

extension Row {
    func id<Owner>(_ column: String) throws -> Identifier<Owner> {
        let text: String = try decode(forColumn: column)
        guard let id = Identifier<Owner>(text) else { throw StoreError.unreadable("\(column) '\(text)' is not a UUID") }
        return id
    }

    func timestamp(_ column: String) throws -> Date {
        let text: String = try decode(forColumn: column)
        guard let date = StoredTime.date(text) else { throw StoreError.unreadable("\(column) '\(text)' is not a timestamp") }
        return date
    }

    func optionalID<Owner>(_ column: String) throws -> Identifier<Owner>? {
        let text: String? = try decode(forColumn: column)
        return try text.map { text in
            guard let id = Identifier<Owner>(text) else { throw StoreError.unreadable("\(column) '\(text)' is not a UUID") }
            return id
        }
    }
}
