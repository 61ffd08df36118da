import Diary
import Foundation
import GRDB
import Persistence
import Testing

@testable import DiaryStore

/// FTS5 keeps each transaction's tokens as a segment of their own and merges them only level by level: a diary
/// written an entry at a time is searched in many pieces, each looked up for every term (issue 35: the two-term
/// search took twice as long). `tidySearchIndex` merges them into one, and the index answers as before.
@Suite struct SearchIndexUpkeepTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-search-upkeep-\(UUID().uuidString)")

    /// `count` entries of one family, each written (and indexed) in a transaction of its own, as the API writes them.
    func write(_ database: DiaryDatabase, family: FamilyID, count: Int) async throws {
        try await database.writer.write { db in
            try db.execute(sql: "INSERT INTO families (id, name, createdAt) VALUES (?, '김씨네', '2025-06-01 01:00:00.000')", arguments: [family.sql])
        }
        for number in 0..<count {
            try await database.writer.write { db in
                let entry = EntryID()
                try db.execute(
                    sql: """
                        INSERT INTO entries (id, familyId, title, body, localDateTime, timeZone, createdAt, modifiedAt)
                        VALUES (?, ?, ?, ?, '2025-06-01T10:00', 'Asia/Seoul', '2025-06-01 01:00:00.000', '2025-06-01 01:00:00.000')
                        """,
                    arguments: [entry.sql, family.sql, "산책 \(number)", number % 3 == 0 ? "공원에서 아기와 산책" : "할머니 댁 낮잠 \(number)"])
                try SearchIndex.refresh(db, entry: entry)
            }
        }
    }

    func matches(_ database: DiaryDatabase, _ query: String) async throws -> [Int64] {
        try await database.writer.read { db in
            try Int64.fetchAll(db, sql: "SELECT rowid FROM searchIndex WHERE searchIndex MATCH ? ORDER BY rowid", arguments: [query])
        }
    }

    @Test func anIndexWrittenAnEntryAtATimeIsMergedIntoOneAndAnswersAlike() async throws {
        let database = try DiaryDatabase(folder: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try await database.reading { db in try SearchIndex.segments(db) } == 0)  // nothing indexed yet
        #expect(try await database.tidySearchIndex() == false)
        try await write(database, family: FamilyID(), count: 300)
        let before = try await database.reading { db in try SearchIndex.segments(db) }
        #expect(before >= SearchIndex.segmentsWorthMerging, "300 transactions left \(before) segments")
        let park = try await matches(database, "공원 AND 산책")
        let nap = try await matches(database, "낮잠")
        #expect(park.count == 100 && nap.count == 200)

        #expect(try await database.tidySearchIndex())
        #expect(try await database.reading { db in try SearchIndex.segments(db) } == 1)
        #expect(try await matches(database, "공원 AND 산책") == park)
        #expect(try await matches(database, "낮잠") == nap)
        try await database.writer.write { db in try db.execute(sql: "INSERT INTO searchIndex (searchIndex) VALUES ('integrity-check')") }
        #expect(try await database.tidySearchIndex() == false)  // one segment: nothing to do
    }

    /// The structure record is read defensively: a record cut short or of an unknown shape counts as no segments.
    @Test(arguments: [[], [0, 0, 0, 1], [0, 0, 0, 1, 0x85], [0, 0, 0, 1, 0xFF, 0, 0, 1, 3], [0, 0, 0, 1, 2, 7], [0, 0, 0, 1, 0xFF, 0, 0, 1, 2, 0x81, 0x00]] as [[UInt8]])
    func theStructureRecordIsReadSafely(record: [UInt8]) async throws {
        let database = try DiaryDatabase(folder: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let segments = try await database.writer.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO searchIndex_data (id, block) VALUES (10, ?)", arguments: [Data(record)])
            defer { try? db.execute(sql: "DELETE FROM searchIndex_data WHERE id = 10") }
            return try SearchIndex.segments(db)
        }
        let expected = [[0, 0, 0, 1, 2, 7]: 7, [0, 0, 0, 1, 0xFF, 0, 0, 1, 2, 0x81, 0x00]: 128][record] ?? 0
        #expect(segments == expected)
    }
}
