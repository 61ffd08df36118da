import Diary

/// A table whose rows each belong to one family, and the lookups every store makes on it the same way:
/// always scoped by the family, so another family's row is simply not found.
public struct FamilyTable: Sendable {
    /// The SQL table.
    public let name: String
    /// The word for one row in error messages ("child", "entry").
    public let kind: String

    public static let children = FamilyTable(name: "children", kind: "child")
    public static let entries = FamilyTable(name: "entries", kind: "entry")
    public static let memos = FamilyTable(name: "memos", kind: "memo")
    public static let events = FamilyTable(name: "events", kind: "event")
    public static let anniversaries = FamilyTable(name: "anniversaries", kind: "anniversary")
    public static let photos = FamilyTable(name: "photos", kind: "photo")

    public func row<Owner>(_ db: any SQLSession, family: FamilyID, id: Identifier<Owner>) throws -> SQLRow {
        guard let row = try db.row("SELECT * FROM \(raw: name) WHERE id = \(id) AND familyId = \(family)") else { throw notFound(id) }
        return row
    }

    /// Refuses an ID that `field` names when it is not a row of the family (422 naming the field, not 404).
    public func requireReference<Owner>(_ db: any SQLSession, family: FamilyID, id: Identifier<Owner>, field: String) throws {
        guard try db.exists("SELECT 1 FROM \(raw: name) WHERE id = \(id) AND familyId = \(family)") else {
            throw StoreError.unknownReference(field: field, id: id.description)
        }
    }

    /// One keyset page of the family's rows; `condition` (SQL starting with AND) narrows it further.
    public func page(_ db: any SQLSession, family: FamilyID, paging: KeysetPage, condition: SQL = "") throws
        -> (rows: ArraySlice<SQLRow>, next: PageCursor?)
    {
        try paging.split(
            db.rows(
                "SELECT *, \(raw: paging.sortKey) AS pageKey FROM \(raw: name) WHERE familyId = \(family)\(condition)\(paging.condition)\(paging.orderAndLimit)"
            ))
    }

    public func delete<Owner>(_ db: any SQLSession, family: FamilyID, id: Identifier<Owner>) throws {
        try requireChanged(db.execute("DELETE FROM \(raw: name) WHERE id = \(id) AND familyId = \(family)"), id: id)
    }

    /// After an UPDATE … WHERE id = … AND familyId = …: a row must have matched.
    public func requireChanged<Owner>(_ changed: Int, id: Identifier<Owner>) throws {
        guard changed == 1 else { throw notFound(id) }
    }

    public func notFound<Owner>(_ id: Identifier<Owner>) -> StoreError {
        .notFound(kind: kind, id: id.description)
    }
}

/// Keyset paging over `(sortKey, id)`: fetch one row more than asked to learn whether a next page exists.
public struct KeysetPage: Sendable {
    /// The SQL expression the list is ordered by (a column, or an expression over columns); trusted text.
    public let sortKey: String
    public let descending: Bool
    public let cursor: PageCursor?
    public let limit: Int

    public init(sortKey: String, descending: Bool, cursor: PageCursor?, limit: Int) {
        self.sortKey = sortKey
        self.descending = descending
        self.cursor = cursor
        self.limit = limit
    }

    /// `AND (sortKey, id) < (…, …)` (or `>`), empty on the first page.
    public var condition: SQL {
        guard let cursor else { return "" }
        return " AND (\(raw: sortKey), id) \(raw: descending ? "<" : ">") (\(cursor.sortKey), \(cursor.id))"
    }

    public var orderAndLimit: SQL {
        let direction = descending ? "DESC" : "ASC"
        return " ORDER BY \(raw: sortKey) \(raw: direction), id \(raw: direction) LIMIT \(raw: String(limit + 1))"
    }

    /// Trims the extra row and makes the next cursor from the last row kept (its `pageKey` and `id`).
    public func split(_ rows: [SQLRow]) throws -> (rows: ArraySlice<SQLRow>, next: PageCursor?) {
        let kept = rows.prefix(limit)
        guard rows.count > limit, let last = kept.last else { return (kept, nil) }
        return (kept, PageCursor(sortKey: try last.string("pageKey"), id: try last.string("id")))
    }
}

/// Rows were validated on the way in; a failure reading them back means damage, not bad input.
public func readBack<T>(_ what: String, _ make: () throws -> T) throws -> T {
    do {
        return try Validate.readingStored(make)
    } catch let error as StoreError {
        throw error
    } catch {
        throw StoreError.unreadable("\(what): \(error)")
    }
}

extension Identifier {
    /// The same lowercase text the rows store.
    public var sql: String { description }
}
