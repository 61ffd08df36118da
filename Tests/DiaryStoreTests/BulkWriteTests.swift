import Foundation
import GRDB
import Persistence
import Testing

@testable import DiaryStore

#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// SQLite keeps 2 MB of a connection's pages: a transaction changing more wrote them into the WAL as it went and
/// read them back (an import of 10,000 entries: 130,000 writes and as many reads, issue 35). A bulk write keeps its
/// changes in memory, and the connection has its own size again after.
@Suite struct BulkWriteTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-bulk-\(UUID().uuidString)")

    /// 8 MB of rows in one transaction; the pages SQLite wrote out before the commit to make room.
    static func fill(_ session: any SQLSession, table: String) throws -> Int32 {
        let db = try #require(session as? SQLiteSession).db
        var current: Int32 = 0
        var highest: Int32 = 0
        sqlite3_db_status(db.sqliteConnection, SQLITE_DBSTATUS_CACHE_SPILL, &current, &highest, 1)  // from zero
        try db.execute(sql: "CREATE TABLE \(table) (bytes BLOB NOT NULL)")
        for _ in 0..<2_000 { try db.execute(sql: "INSERT INTO \(table) (bytes) VALUES (randomblob(4000))") }
        sqlite3_db_status(db.sqliteConnection, SQLITE_DBSTATUS_CACHE_SPILL, &current, &highest, 0)
        return current
    }

    @Test func aBulkWriteKeepsItsChangesInMemoryAndGivesTheRoomBack() async throws {
        let database = try DiaryDatabase(folder: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let size = try await database.writer.write { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") }
        #expect(try await database.write(rollingBack: false) { session in try Self.fill(session, table: "plain") } > 0)
        #expect(try await database.bulkWrite(rollingBack: false) { session in try Self.fill(session, table: "bulk") } == 0)
        #expect(try await database.bulkWrite(rollingBack: true) { session in try Self.fill(session, table: "dry") } == 0)
        #expect(try await database.writer.write { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") } == size)
        #expect(try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM bulk") } == 2_000)
        #expect(try await database.writer.read { db in try db.tableExists("dry") } == false)
    }
}
