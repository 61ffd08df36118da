import Foundation
import GRDB
import Persistence
import Testing

@testable import DiaryStore

/// `SQLiteSession.rows` binds, steps and reads through SQLite's own functions: every kind of value comes back as GRDB's
/// decoding gave it, a statement is never left open, and a wrong statement is an error, not a trap.
@Suite struct SQLiteSessionTests {
    @Test func everyKindOfValueComesBackAsBound() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-session-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try DiaryDatabase(folder: folder)
        defer { database.close() }
        let values: [SQLValue] = [
            .integer(0), .integer(.max), .integer(.min), .real(-2.5), .text(""), .text("하늘 👶 \u{0301}"),
            .blob(Data()), .blob(Data([0, 255, 1])), .null, .bool(true),
        ]
        try await database.write(rollingBack: false) { db in
            try db.execute("CREATE TABLE kinds (position INTEGER PRIMARY KEY, value)")
            for (position, value) in values.enumerated() { try db.execute("INSERT INTO kinds VALUES (\(position), \(value))") }
            // Bytes that are not UTF-8, stored as text by hand: read repaired, as every stored text is; and a NUL within
            // a text, read whole (by its length) as PostgreSQL would give it.
            try db.execute("INSERT INTO kinds VALUES (100, CAST(x'61ff62' AS TEXT)), (101, CAST(x'610062' AS TEXT))")
        }
        let rows = try await database.read { db in try db.rows("SELECT position, value FROM kinds ORDER BY position") }
        let read = rows.map { $0.values[1] }
        let expected = values.map { $0 == .bool(true) ? .integer(1) : $0 } + [.text("a\u{FFFD}b"), .text("a\u{0}b")]
        #expect(read == expected)
        #expect(rows.allSatisfy { $0.names == ["position", "value"] })
        // The same statement again, with other values: bound afresh, nothing of the last run left.
        let again = try await database.read { db in
            (
                try db.rows("SELECT position, value FROM kinds WHERE position IN \(list: [3, 101])"),
                try db.rows("SELECT position, value FROM kinds WHERE position IN \(list: [100, 8])")
            )
        }
        #expect(again.0.map(\.values) == [[.integer(3), .real(-2.5)], [.integer(101), .text("a\u{0}b")]])
        #expect(again.1.map(\.values) == [[.integer(8), .null], [.integer(100), .text("a\u{FFFD}b")]])
    }

    @Test func aStatementThatFailsIsAnErrorAndLeavesNothingOpen() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-session-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try DiaryDatabase(folder: folder)
        defer { database.close() }
        await #expect(throws: DatabaseError.self) { try await database.read { db in try db.rows("SELECT nothing FROM nowhere") } }
        // An error while stepping (an integer overflow in SQLite's `abs`) ends the read, which a later read survives.
        await #expect(throws: DatabaseError.self) {
            try await database.read { db in try db.rows("SELECT abs(\(Int64.min))") }
        }
        // A text of placeholders that do not match the values (never made by `SQL`, but refused all the same).
        await #expect(throws: DatabaseError.self) {
            try await database.read { db in
                guard let session = db as? SQLiteSession else { return [SQLRow]() }
                return try session.rows(SQL(raw: "SELECT ?, ?"))
            }
        }
        let one = try await database.read { db in try db.rows("SELECT \(7) AS seven") }
        #expect(one.map(\.values) == [[.integer(7)]])
    }
}
