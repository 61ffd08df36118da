import Diary
import Foundation
import Testing

@testable import Persistence

/// The statement type both engines render, and the rows they read back: values are bound, never pasted into the
/// text; each engine numbers its own placeholders; a stored value of the wrong kind is an error, never a trap.
@Suite struct SQLTests {
    @Test func valuesAreBoundAndEachEngineNumbersItsPlaceholders() {
        let id = EntryID()
        let name = "O'Brien; DROP TABLE entries"
        let missing: String? = nil
        let statement: SQL = "SELECT * FROM \(raw: "entries") WHERE id = \(id) AND title = \(name) AND weather IS \(missing)"
        let sqlite = statement.rendered { _ in "?" }
        #expect(sqlite.text == "SELECT * FROM entries WHERE id = ? AND title = ? AND weather IS ?")
        #expect(sqlite.values == [.text(id.description), .text(name), .null])
        #expect(statement.rendered { "$\($0)" }.text == "SELECT * FROM entries WHERE id = $1 AND title = $2 AND weather IS $3")
    }

    @Test func listsBindEachValueAndAnEmptyListMatchesNothing() {
        let ids = ["a", "b", "c"]
        let some: SQL = "x IN \(list: ids) AND y = \(true)"
        #expect(some.rendered { "$\($0)" }.text == "x IN ($1, $2, $3) AND y = $4")
        #expect(some.rendered { _ in "?" }.values == [.text("a"), .text("b"), .text("c"), .bool(true)])
        let none: SQL = "x IN \(list: [String]())"
        #expect(none.rendered { _ in "?" } == ("x IN (NULL)", []))
    }

    @Test func fragmentsJoinWithTheirValuesInOrder() {
        let first: SQL = "a = \(1)"
        let second: SQL = "b = \(2.5)"
        var joined = SQL.joined([first, second], separator: " AND ")
        joined += " LIMIT \(raw: "3")"
        let (text, values) = joined.rendered { "$\($0)" }
        #expect(text == "a = $1 AND b = $2 LIMIT 3")
        #expect(values == [.integer(1), .real(2.5)])
        let time = Date(timeIntervalSince1970: 1_800_000_000.123)
        #expect(("t = \(time)" as SQL).rendered { _ in "?" }.values == [.text(time.stored)])
    }

    @Test func rowsAreReadByNameWithoutRegardToCaseAndRefuseTheWrongKind() throws {
        let columns = SQLColumns(["id", "familyid", "isHoliday", "count", "weight", "note", "createdAt"])
        let id = FamilyID()
        let row = SQLRow(
            columns: columns,
            values: [.text(id.description), .text(id.description), .integer(1), .integer(7), .integer(3), .null, .text("2026-11-25 10:00:00.000")])
        #expect(try row.id("familyId") as FamilyID == id)
        #expect(try row.bool("isHoliday") && (try row.int("count")) == 7 && (try row.double("weight")) == 3)
        #expect(try row.optionalString("note") == nil && (try row.optionalTimestamp("note")) == nil)
        #expect(try row.timestamp("createdAt") == StoredTime.date("2026-11-25 10:00:00.000"))
        #expect(throws: StoreError.self) { try row.string("count") }
        #expect(throws: StoreError.self) { try row.string("note") }
        #expect(throws: StoreError.self) { try row.int("nothing") }
        #expect(throws: StoreError.self) { try row.id("count") as FamilyID }
        let bad = SQLRow(columns: SQLColumns(["id", "big", "at"]), values: [.text("not a uuid"), .integer(.max), .text("yesterday")])
        #expect(throws: StoreError.self) { try bad.id("id") as FamilyID }
        #expect(throws: StoreError.self) { try bad.timestamp("at") }
        #expect(throws: StoreError.self) { try bad.value(at: 9) }
    }

    /// Found by scanning: as written first, then folded either way, and the first of two alike.
    @Test func columnsAreFoundAsWrittenThenFolded() {
        let columns = SQLColumns(["id", "familyid", "localDateTime", "ID", "pageKey", "pagekey"])
        #expect(columns.position("id") == 0 && columns.position("ID") == 3 && columns.position("Id") == 0)
        #expect(columns.position("familyId") == 1 && columns.position("localdatetime") == 2 && columns.position("LOCALDATETIME") == 2)
        #expect(columns.position("pageKey") == 4 && columns.position("pagekey") == 5 && columns.position("PageKey") == 5)
        #expect(columns.position("nothing") == nil && columns.position("") == nil)
    }

    @Test func keysetPagesContinueAfterTheLastRowKept() throws {
        let first = KeysetPage(sortKey: "createdAt", descending: true, cursor: nil, limit: 2)
        #expect(first.condition.description.isEmpty)
        #expect(first.orderAndLimit.description == " ORDER BY createdAt DESC, id DESC LIMIT 3")
        let columns = SQLColumns(["id", "pageKey"])
        let rows = (1...3).map { SQLRow(columns: columns, values: [.text("id\($0)"), .text("key\($0)")]) }
        let (kept, next) = try first.split(rows)
        #expect(kept.count == 2 && next == PageCursor(sortKey: "key2", id: "id2"))
        let after = KeysetPage(sortKey: "createdAt", descending: true, cursor: next, limit: 2)
        #expect(after.condition.rendered { "$\($0)" } == (" AND (createdAt, id) < ($1, $2)", [.text("key2"), .text("id2")]))
        #expect(try after.split(Array(rows.prefix(1))).next == nil)
    }
}
