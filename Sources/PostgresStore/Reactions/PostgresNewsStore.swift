import Diary
import DiaryStore
import Foundation
import Persistence

/// `NewsStore` over PostgreSQL, with the statements of `NewsSQL`.
public struct PostgresNewsStore: NewsStore {
    let database: PostgresDatabase

    public init(_ database: PostgresDatabase) { self.database = database }

    public func news(family: FamilyID, user: UserID) async throws -> [NewsLine] {
        let rows = try await database.readAsync { db in try await db.rows(NewsSQL.news, [user.sql, family.sql, user.sql, user.sql]) }
        return try rows.map { row in
            try readBack("news") {
                NewsLine(
                    authorID: try row.id("authorId"), authorName: try row.optionalString("username") ?? "",
                    entries: try row.int("entries"), photos: try row.optionalInt("photos") ?? 0)
            }
        }
    }

    public func unread(family: FamilyID, user: UserID, among entries: [EntryID]) async throws -> Set<EntryID> {
        guard !entries.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: entries.count).joined(separator: ", ")
        let rows = try await database.readAsync { db in
            try await db.rows(NewsSQL.unreadIDs + "(\(marks))", [user.sql, family.sql, user.sql, user.sql] + entries.map(\.sql))
        }
        return Set(try rows.compactMap { EntryID(try $0.string("id")) })
    }

    public func markRead(family: FamilyID, user: UserID, entries: [EntryID]) async throws {
        guard !entries.isEmpty else { return }
        let now = database.clock.now()
        let marks = Array(repeating: "?", count: entries.count).joined(separator: ", ")
        try await database.writeAsync { db in
            try await db.execute(
                """
                INSERT INTO entryReads (familyId, entryId, userId, readAt)
                SELECT familyId, id, ?, ? FROM entries WHERE familyId = ? AND id IN (\(marks))
                ON CONFLICT DO NOTHING
                """, [user.sql, now.stored, family.sql] + entries.map(\.sql))
        }
    }

    public func markAllRead(family: FamilyID, user: UserID) async throws {
        let now = database.clock.now()
        try await database.writeAsync { db in
            try await db.execute(NewsSQL.readAll, [now.stored, user.sql, family.sql, user.sql, user.sql])
        }
    }
}
