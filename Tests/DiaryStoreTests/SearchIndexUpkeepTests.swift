import Diary
import Foundation
import GRDB
import KoreanCalendar
import Persistence
import Testing

@testable import DiaryStore

/// FTS5 keeps each transaction's tokens as a segment of their own and merges them only level by level: a diary
/// written an entry at a time is searched in many pieces, each looked up for every term (issue 35: the two-term
/// search took twice as long). `tidySearchIndex` merges them into one, and the index answers as before.
@Suite struct SearchIndexUpkeepTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-search-upkeep-\(UUID().uuidString)")

    /// `count` entries of one family, each written (and indexed) in a transaction of its own, as the API writes them.
    func write(_ database: DiaryDatabase, family: FamilyID, name: String = "김씨네", count: Int) async throws {
        try await database.writer.write { db in
            try db.execute(sql: "INSERT INTO families (id, name, createdAt) VALUES (?, ?, '2025-06-01 01:00:00.000')", arguments: [family.sql, name])
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

    /// SQLite 3.40's incremental merge begins again a level higher for every step that follows another write, and
    /// past 2,000 levels FTS5 cannot open the index: `make bench`'s four clients writing through the API while the
    /// server merged got there in a minute, and every write of an entry failed after. A write between two steps now
    /// ends the merge, and a later check goes on with it.
    @Test func writesBetweenTheStepsEndTheMergeBeforeItAddsLevels() async throws {
        let database = try DiaryDatabase(folder: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await write(database, family: FamilyID(), count: 300)
        let before = try #require(try await database.reading { db in try SearchIndex.structure(db) })
        // A page a step, so that the merge takes many steps, and another family's entries written beside them.
        async let writing: Void = write(database, family: FamilyID(), name: "이씨네", count: 150)
        _ = try await database.tidySearchIndex(pages: 1)
        try await writing
        let during = try #require(try await database.reading { db in try SearchIndex.structure(db) })
        #expect(during.levels <= before.levels + 2, "\(before.levels) levels before the merge, \(during.levels) after")
        while try await database.reading({ db in try SearchIndex.segments(db) }) > 1 {
            #expect(try await database.tidySearchIndex(pages: 1))
        }
        let after = try #require(try await database.reading { db in try SearchIndex.structure(db) })
        #expect(after.levels <= before.levels + 4)
        #expect(try await matches(database, "낮잠").count == 300)
        try await database.writer.write { db in try db.execute(sql: "INSERT INTO searchIndex (searchIndex) VALUES ('integrity-check')") }
    }

    /// An index left with more levels than FTS5 opens (as the merge above could leave it before) fails every write of an
    /// entry; the next check makes it again from its documents, and it answers as before.
    @Test func anIndexFTS5CannotOpenIsMadeAgain() async throws {
        let database = try DiaryDatabase(folder: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let family = FamilyID()
        try await write(database, family: family, count: 30)
        let nap = try await matches(database, "낮잠")
        // 2,001 levels, as the bench's diary was left: cookie, levels (a two-byte varint), segments, writes.
        try await database.writer.write { db in
            try db.execute(sql: "UPDATE searchIndex_data SET block = ? WHERE id = 10", arguments: [Data([0, 0, 0, 0, 0x8F, 0x51, 0, 0])])
        }
        await #expect(throws: DatabaseError.self) { try await matches(database, "낮잠") }
        #expect(try await database.tidySearchIndex())
        #expect(try await matches(database, "낮잠") == nap)
        #expect(try await database.reading { db in try SearchIndex.structure(db) }.map(\.levels) ?? 0 < 4)
        try await database.writer.write { db in try db.execute(sql: "INSERT INTO searchIndex (searchIndex) VALUES ('integrity-check')") }
    }

    /// FTS5 (SQLite 3.40) writes what it holds as a segment whenever a statement that may be undone on its own starts,
    /// as every statement firing a trigger does: an import that indexed its entries one at a time wrote a segment for
    /// each and kept merging them (issue 35: half the Day One import's writing, 660 MB of statement journal). Its
    /// entries are now indexed a thousand to a statement — a segment each time FTS5's memory fills (65 for these 2,500,
    /// 2,500 before) — in the order they were written.
    @Test func anImportIndexesItsEntriesTogetherInTheOrderItWroteThem() async throws {
        let database = try DiaryDatabase(folder: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stores = database.stores
        let family = try await stores.accounts.createUser(username: "kim", passwordHash: "x", familyName: "김씨네").1.id
        let child = try await stores.children.create(
            family: family, profile: try ChildProfile(name: "하늘", birthDate: .solar(try SolarDate(iso: "2024-01-01"))))
        var batch = ImportBatch()
        let count = SearchIndex.entriesAStatement * 2 + 500
        for number in 0..<count {
            let content = try EntryContent(
                title: "산책 \(number)", body: number % 3 == 0 ? "공원에서 아기와 산책" : "할머니 댁 낮잠", date: try LocalDateTime(iso: "2024-05-05T10:00"),
                childIDs: [child.id], tags: number % 2 == 0 ? ["나들이"] : [])
            batch.entries.append(.init(sourceKey: "entry-\(number)", content: content))
        }
        let before = try #require(try await database.reading { db in try SearchIndex.structure(db) }).writes
        let outcome = try await stores.imports.importBatch(batch, family: family, source: "dayone:a", dryRun: false)
        #expect(outcome.added["entries"] == count)
        let after = try #require(try await database.reading { db in try SearchIndex.structure(db) }).writes
        #expect(after - before <= count / 10, "\(count) entries were written to the index as \(after - before) segments")
        let titles = try await database.reading { db in
            try String.fetchAll(db, sql: "SELECT title FROM searchDocuments ORDER BY id")
        }
        #expect(titles == batch.entries.map(\.content.title))
        #expect(try await matches(database, "공원 AND 산책").count == (count + 2) / 3)
        #expect(try await matches(database, "나들이").count == (count + 1) / 2)
        try await database.writer.write { db in try db.execute(sql: "INSERT INTO searchIndex (searchIndex) VALUES ('integrity-check')") }
    }

    /// The structure record is read defensively: a record cut short or of an unknown shape counts as no segments.
    @Test(arguments: [
        [], [0, 0, 0, 1], [0, 0, 0, 1, 0x85], [0, 0, 0, 1, 0xFF, 0, 0, 1, 3], [0, 0, 0, 1, 2, 7], [0, 0, 0, 1, 2, 7, 12],
        [0, 0, 0, 1, 0xFF, 0, 0, 1, 2, 0x81, 0x00, 0x90, 0x00],
    ] as [[UInt8]])
    func theStructureRecordIsReadSafely(record: [UInt8]) async throws {
        let database = try DiaryDatabase(folder: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let segments = try await database.writer.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO searchIndex_data (id, block) VALUES (10, ?)", arguments: [Data(record)])
            defer { try? db.execute(sql: "DELETE FROM searchIndex_data WHERE id = 10") }
            return try SearchIndex.segments(db)
        }
        let expected = [[0, 0, 0, 1, 2, 7, 12]: 7, [0, 0, 0, 1, 0xFF, 0, 0, 1, 2, 0x81, 0x00, 0x90, 0x00]: 128][record] ?? 0
        #expect(segments == expected)
    }
}
