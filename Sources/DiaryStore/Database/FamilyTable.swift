import Diary
import GRDB
import Persistence

/// A table whose rows each belong to one family, and the lookups every store makes on it the same way:
/// always scoped by the family, so another family's row is simply not found.
struct FamilyTable: Sendable {
    /// The SQL table.
    let name: String
    /// The word for one row in error messages ("child", "entry").
    let kind: String

    static let children = FamilyTable(name: "children", kind: "child")
    static let entries = FamilyTable(name: "entries", kind: "entry")
    static let memos = FamilyTable(name: "memos", kind: "memo")
    static let events = FamilyTable(name: "events", kind: "event")
    static let anniversaries = FamilyTable(name: "anniversaries", kind: "anniversary")
    static let photos = FamilyTable(name: "photos", kind: "photo")

    func row<Owner>(_ db: Database, family: FamilyID, id: Identifier<Owner>) throws -> Row {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM \(name) WHERE id = ? AND familyId = ?", arguments: [id.sql, family.sql])
        else { throw notFound(id) }
        return row
    }

    /// Refuses an ID that `field` names when it is not a row of the family (422 naming the field, not 404).
    func requireReference<Owner>(_ db: Database, family: FamilyID, id: Identifier<Owner>, field: String) throws {
        guard try Row.fetchOne(db, sql: "SELECT 1 FROM \(name) WHERE id = ? AND familyId = ?", arguments: [id.sql, family.sql]) != nil
        else { throw StoreError.unknownReference(field: field, id: id.description) }
    }

    /// One keyset page of the family's rows; `condition` (SQL starting with AND) narrows it further.
    func page(_ db: Database, family: FamilyID, paging: KeysetPage, condition: String = "", arguments: StatementArguments = [])
        throws -> (rows: ArraySlice<Row>, next: PageCursor?)
    {
        let sql = "SELECT *, \(paging.sortKey) AS pageKey FROM \(name) WHERE familyId = ?" + condition + paging.condition + paging.orderAndLimit
        return try paging.split(Row.fetchAll(db, sql: sql, arguments: [family.sql] + arguments + paging.arguments))
    }

    func delete<Owner>(_ db: Database, family: FamilyID, id: Identifier<Owner>) throws {
        try db.execute(sql: "DELETE FROM \(name) WHERE id = ? AND familyId = ?", arguments: [id.sql, family.sql])
        try requireChanged(db, id: id)
    }

    /// After an UPDATE … WHERE id = ? AND familyId = ?: a row must have matched.
    func requireChanged<Owner>(_ db: Database, id: Identifier<Owner>) throws {
        guard db.changesCount == 1 else { throw notFound(id) }
    }

    func notFound<Owner>(_ id: Identifier<Owner>) -> StoreError {
        .notFound(kind: kind, id: id.description)
    }
}
