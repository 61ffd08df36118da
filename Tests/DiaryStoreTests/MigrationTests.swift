import Diary
import Foundation
import GRDB
import Testing

@testable import DiaryStore

/// Migrations run SQL only; what they fill in is checked here on data written before them.
@Suite struct MigrationTests {
    /// v3 makes the search documents of the entries and memos a v2 database already holds.
    @Test func searchMigrationIndexesWhatWasThere() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-migrate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let family = FamilyID(), entry = EntryID(), memo = MemoID(), tag = TagID()
        do {
            let old = try DiaryDatabase(folder: folder, schema: "v2 photos")
            try await old.writer.write { db in
                let (f, e, m, t) = (family.sql, entry.sql, memo.sql, tag.sql)
                let time = "2025-06-01 01:00:00.000"
                try db.execute(sql: "INSERT INTO families (id, name, createdAt) VALUES (?, '김씨네', ?)", arguments: [f, time])
                try db.execute(
                    sql: """
                        INSERT INTO entries (id, familyId, title, body, localDateTime, timeZone, placeName, createdAt, modifiedAt)
                        VALUES (?, ?, '첫걸음', '거실에서 세 걸음', '2025-06-01T10:00', 'Asia/Seoul', '올림픽공원', ?, ?)
                        """,
                    arguments: [e, f, time, time])
                try db.execute(sql: "INSERT INTO tags (id, familyId, name) VALUES (?, ?, '걸음마')", arguments: [t, f])
                try db.execute(
                    sql: "INSERT INTO entryTags (entryId, tagId, familyId, position) VALUES (?, ?, ?, 0)", arguments: [e, t, f])
                try db.execute(
                    sql: "INSERT INTO memos (id, familyId, title, body, createdAt, modifiedAt) VALUES (?, ?, '장보기', '기저귀 두 팩', ?, ?)",
                    arguments: [m, f, time, time])
            }
        }
        let database = try DiaryDatabase(folder: folder)
        let search = SQLiteSearchStore(database)
        for (text, id) in [("걸음", entry.description), ("걸음마", entry.description), ("올림픽공원", entry.description), ("기저귀", memo.description)] {
            let hits = try await search.search(family: family, try SearchQuery(text), after: nil, limit: 10)
            #expect(hits.items.map(\.id) == [id], "\(text)")
        }
    }
}
