import Diary
import DiaryStore
import Persistence

/// A table whose rows each belong to one family, and the lookups every store makes on it the same way (as
/// `FamilyTable` does for SQLite): always scoped by the family, so another family's row is simply not found.
struct PostgresFamilyTable: Sendable {
    let name: String
    /// The word for one row in error messages ("child", "entry").
    let kind: String

    static let children = PostgresFamilyTable(name: "children", kind: "child")
    static let entries = PostgresFamilyTable(name: "entries", kind: "entry")
    static let memos = PostgresFamilyTable(name: "memos", kind: "memo")
    static let events = PostgresFamilyTable(name: "events", kind: "event")
    static let anniversaries = PostgresFamilyTable(name: "anniversaries", kind: "anniversary")
    static let photos = PostgresFamilyTable(name: "photos", kind: "photo")

    func row<Owner>(_ db: PostgresTransaction, family: FamilyID, id: Identifier<Owner>) async throws -> PostgresRecord {
        guard let row = try await db.row("SELECT * FROM \(name) WHERE id = ? AND familyId = ?", [id.sql, family.sql])
        else { throw notFound(id) }
        return row
    }

    /// Refuses an ID that `field` names when it is not a row of the family (422 naming the field, not 404).
    func requireReference<Owner>(_ db: PostgresTransaction, family: FamilyID, id: Identifier<Owner>, field: String) async throws {
        guard try await db.exists("SELECT 1 FROM \(name) WHERE id = ? AND familyId = ?", [id.sql, family.sql])
        else { throw StoreError.unknownReference(field: field, id: id.description) }
    }

    /// One keyset page of the family's rows; `condition` (SQL starting with AND) narrows it further.
    func page(
        _ db: PostgresTransaction, family: FamilyID, paging: PostgresKeysetPage, condition: String = "", arguments: [SQLArgument] = []
    ) async throws -> (rows: ArraySlice<PostgresRecord>, next: PageCursor?) {
        let sql = "SELECT *, \(paging.sortKey) AS pageKey FROM \(name) WHERE familyId = ?" + condition + paging.condition + paging.orderAndLimit
        return try paging.split(try await db.rows(sql, [family.sql] + arguments + paging.arguments))
    }

    func delete<Owner>(_ db: PostgresTransaction, family: FamilyID, id: Identifier<Owner>) async throws {
        let deleted = try await db.execute("DELETE FROM \(name) WHERE id = ? AND familyId = ? RETURNING 1", [id.sql, family.sql])
        guard deleted == 1 else { throw notFound(id) }
    }

    func notFound<Owner>(_ id: Identifier<Owner>) -> StoreError {
        .notFound(kind: kind, id: id.description)
    }
}

/// Keyset paging over `(sortKey, id)` with PostgreSQL's arguments and rows (the stores not yet written once over
/// `SQLSession`; `KeysetPage` is the neutral one).
struct PostgresKeysetPage {
    let sortKey: String
    let descending: Bool
    let cursor: PageCursor?
    let limit: Int

    init(sortKey: String, descending: Bool, cursor: PageCursor?, limit: Int) {
        self.sortKey = sortKey
        self.descending = descending
        self.cursor = cursor
        self.limit = limit
    }

    var condition: String {
        guard cursor != nil else { return "" }
        return " AND (\(sortKey), id) \(descending ? "<" : ">") (?, ?)"
    }

    var orderAndLimit: String {
        let direction = descending ? "DESC" : "ASC"
        return " ORDER BY \(sortKey) \(direction), id \(direction) LIMIT \(limit + 1)"
    }

    var arguments: [SQLArgument] {
        guard let cursor else { return [] }
        return [cursor.sortKey, cursor.id]
    }

    func split(_ rows: [PostgresRecord]) throws -> (rows: ArraySlice<PostgresRecord>, next: PageCursor?) {
        let kept = rows.prefix(limit)
        guard rows.count > limit, let last = kept.last else { return (kept, nil) }
        return (kept, PageCursor(sortKey: try last.string("pageKey"), id: try last.string("id")))
    }
}
