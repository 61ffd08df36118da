import Diary
import Foundation
import GRDB
import Persistence
import Testing

@testable import DiaryStore

/// SQLite plans by statistics it gathers only when asked; without them it takes a family for a rare value and walks
/// all of it where 30 rows would do (issue 35). `refreshStatistics` gathers them when they are missing or far off.
@Suite struct StatisticsTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-statistics-\(UUID().uuidString)")

    /// `count` plain entries of one family, written straight into the table.
    func fill(_ database: DiaryDatabase, family: FamilyID, count: Int) async throws {
        try await database.writer.write { db in
            if try Int.fetchOne(db, sql: "SELECT count(*) FROM families") == 0 {
                try db.execute(sql: "INSERT INTO families (id, name, createdAt) VALUES (?, '김씨네', '2025-06-01 01:00:00.000')", arguments: [family.sql])
            }
            for number in 0..<count {
                try db.execute(
                    sql: """
                        INSERT INTO entries (id, familyId, title, body, localDateTime, timeZone, createdAt, modifiedAt)
                        VALUES (?, ?, '산책', '공원', ?, 'Asia/Seoul', '2025-06-01 01:00:00.000', '2025-06-01 01:00:00.000')
                        """,
                    arguments: [EntryID().sql, family.sql, String(format: "20%02d-%02d-%02dT10:00", 10 + number % 15, 1 + number % 12, 1 + number % 28)])
            }
        }
    }

    func plan(_ database: DiaryDatabase, _ sql: String, _ arguments: StatementArguments) async throws -> String {
        try await database.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }.joined(separator: "\n")
        }
    }

    @Test func aDiaryWorthPlanningGetsStatisticsOnceAndAgainWhenItHasGrown() async throws {
        let family = FamilyID()
        let database = try DiaryDatabase(folder: folder)
        try await fill(database, family: family, count: DiaryDatabase.entriesWorthStatistics - 1)
        #expect(try await database.refreshStatistics() == false)  // too few entries to matter
        try await fill(database, family: family, count: 1)
        #expect(try await database.refreshStatistics())
        #expect(try await database.refreshStatistics() == false)  // current
        try await fill(database, family: family, count: DiaryDatabase.entriesWorthStatistics + 10)
        #expect(try await database.refreshStatistics())  // more than twice as many as counted
        // Opening a database checks too.
        try await fill(database, family: family, count: 2_100)
        database.close()
        let reopened = try DiaryDatabase(folder: folder)
        #expect(try await reopened.refreshStatistics() == false)
    }

    /// With statistics, "on this day" and a page's entries by id are read off their own indexes, never the family's.
    @Test func pagesArePlannedFromTheirOwnIndexes() async throws {
        let family = FamilyID()
        let database = try DiaryDatabase(folder: folder)
        try await fill(database, family: family, count: 2_000)
        #expect(try await database.refreshStatistics())
        let monthDay = try await plan(database, "SELECT id FROM entries WHERE familyId = ? AND substr(localDateTime, 6, 5) IN ('05-05')", [family.sql])
        #expect(monthDay.contains("entries_month_day"), "\(monthDay)")
        let ids = try await plan(
            database, "SELECT id FROM entries WHERE id IN (?, ?) AND familyId = ? AND createdAt > '2025-01-01'", [EntryID().sql, EntryID().sql, family.sql])
        #expect(ids.contains("(id=?") && !ids.contains("entries_author"), "\(ids)")
    }
}
