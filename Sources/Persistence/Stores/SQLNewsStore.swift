import Diary
import Foundation

/// `NewsStore` over either engine.
public struct SQLNewsStore: NewsStore {
    let database: any StoreDatabase

    public init(_ database: any StoreDatabase) { self.database = database }

    /// Joins and conditions that keep the entries new to a member: others' entries written since the member joined
    /// that the member has not opened.
    static func unreadFrom(family: FamilyID, user: UserID) -> SQL {
        """
        FROM entries e JOIN memberships m ON m.familyId = e.familyId AND m.userId = \(user)
        WHERE e.familyId = \(family) AND e.authorId IS NOT NULL AND e.authorId <> \(user) AND e.createdAt > m.createdAt
          AND NOT EXISTS (SELECT 1 FROM entryReads r WHERE r.entryId = e.id AND r.userId = \(user))
        """
    }

    public func news(family: FamilyID, user: UserID) async throws -> [NewsLine] {
        try await database.read { db in
            try db.rows(
                """
                SELECT e.authorId, (SELECT u.username FROM users u WHERE u.id = e.authorId) AS username,
                    CAST(count(*) AS BIGINT) AS entries,
                    CAST(sum((SELECT count(*) FROM entryPhotos p WHERE p.entryId = e.id)) AS BIGINT) AS photos
                \(Self.unreadFrom(family: family, user: user))
                GROUP BY e.authorId ORDER BY count(*) DESC, username
                """
            ).map { row in
                try readBack("news") {
                    NewsLine(
                        authorID: try row.id("authorId"), authorName: try row.optionalString("username") ?? "", entries: try row.int("entries"),
                        photos: try row.optionalInt("photos") ?? 0)
                }
            }
        }
    }

    public func unread(family: FamilyID, user: UserID, among entries: [EntryID]) async throws -> Set<EntryID> {
        guard !entries.isEmpty else { return [] }
        return try await database.read { db in
            Set(try db.strings("SELECT e.id \(Self.unreadFrom(family: family, user: user)) AND e.id IN \(list: entries)").compactMap(EntryID.init))
        }
    }

    public func markRead(family: FamilyID, user: UserID, entries: [EntryID]) async throws {
        guard !entries.isEmpty else { return }
        let now = database.clock.now()
        try await database.write { db in
            try db.execute(
                """
                INSERT INTO entryReads (familyId, entryId, userId, readAt)
                SELECT familyId, id, \(user), \(now) FROM entries WHERE familyId = \(family) AND id IN \(list: entries)
                ON CONFLICT DO NOTHING
                """)
        }
    }

    public func markAllRead(family: FamilyID, user: UserID) async throws {
        let now = database.clock.now()
        try await database.write { db in
            try db.execute(
                """
                INSERT INTO entryReads (familyId, entryId, userId, readAt)
                SELECT e.familyId, e.id, m.userId, \(now) \(Self.unreadFrom(family: family, user: user))
                ON CONFLICT DO NOTHING
                """)
        }
    }
}
