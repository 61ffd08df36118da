import Diary
import Foundation
import GRDB
import Persistence

/// `NewsStore` over the SQLite database (`DiaryDatabase`), with the statements of `NewsSQL`.
public struct SQLiteNewsStore: NewsStore {
    let database: DiaryDatabase

    public init(_ database: DiaryDatabase) { self.database = database }

    public func news(family: FamilyID, user: UserID) async throws -> [NewsLine] {
        try await database.writer.read { db in
            try Row.fetchAll(db, sql: NewsSQL.news, arguments: [user.sql, family.sql, user.sql, user.sql]).map { row in
                try readBack("news") {
                    NewsLine(
                        authorID: try row.id("authorId"), authorName: (row["username"] as String?) ?? "", entries: row["entries"],
                        photos: (row["photos"] as Int?) ?? 0)
                }
            }
        }
    }

    public func unread(family: FamilyID, user: UserID, among entries: [EntryID]) async throws -> Set<EntryID> {
        guard !entries.isEmpty else { return [] }
        return try await database.writer.read { db in
            let ids = try String.fetchAll(
                db, sql: NewsSQL.unreadIDs + "(\(databaseQuestionMarks(count: entries.count)))",
                arguments: StatementArguments([user.sql, family.sql, user.sql, user.sql] + entries.map(\.sql)))
            return Set(ids.compactMap(EntryID.init))
        }
    }

    public func markRead(family: FamilyID, user: UserID, entries: [EntryID]) async throws {
        guard !entries.isEmpty else { return }
        let now = database.clock.now()
        try await database.writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO entryReads (familyId, entryId, userId, readAt)
                    SELECT familyId, id, ?, ? FROM entries WHERE familyId = ? AND id IN (\(databaseQuestionMarks(count: entries.count)))
                    ON CONFLICT DO NOTHING
                    """,
                arguments: StatementArguments([user.sql, now.stored, family.sql] + entries.map(\.sql)))
        }
    }

    public func markAllRead(family: FamilyID, user: UserID) async throws {
        let now = database.clock.now()
        try await database.writer.write { db in
            try db.execute(sql: NewsSQL.readAll, arguments: [now.stored, user.sql, family.sql, user.sql, user.sql])
        }
    }
}
