import Diary
import Foundation

/// `NewsStore` over either engine.
public struct SQLNewsStore: NewsStore {
    let database: any StoreDatabase

    public init(_ database: any StoreDatabase) { self.database = database }

    /// The entries of `author` (a column or a value) new to `user`: written since `user` joined (`since`, a column or
    /// a value), not opened. Each author's are read off `entries_news` (family, author, time of writing), so the work
    /// is the unread entries, never the whole diary.
    static func unread(family: FamilyID, user: UserID, author: SQL, since: SQL) -> SQL {
        """
        SELECT e.id FROM entries e
        WHERE e.familyId = \(family) AND e.authorId = \(author) AND e.createdAt > \(since)
          AND NOT EXISTS (SELECT 1 FROM entryReads r WHERE r.entryId = e.id AND r.userId = \(user))
        """
    }

    public func news(family: FamilyID, user: UserID) async throws -> [NewsLine] {
        let limit = NewsLine.counted
        return try await database.read { db in
            // One line per other member; each counts up to `limit` of their newest unread entries and those entries'
            // photos (an author no longer in the family leaves no line; their entries stay marked in the timeline).
            let newest = Self.unread(family: family, user: user, author: "o.userId", since: "me.createdAt")
            return try db.rows(
                """
                SELECT * FROM (
                    SELECT o.userId AS authorId, u.username,
                        (SELECT count(*) FROM (\(newest) ORDER BY e.createdAt DESC LIMIT \(limit)) AS n) AS entries,
                        (SELECT count(*) FROM entryPhotos p WHERE p.entryId IN (\(newest) ORDER BY e.createdAt DESC LIMIT \(limit))) AS photos
                    FROM memberships me
                    JOIN memberships o ON o.familyId = me.familyId AND o.userId <> me.userId
                    LEFT JOIN users u ON u.id = o.userId
                    WHERE me.familyId = \(family) AND me.userId = \(user)
                ) AS lines
                WHERE entries > 0 ORDER BY entries DESC, username
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

    public func unread(family: FamilyID, user: UserID, among entries: [Entry]) async throws -> Set<EntryID> {
        // The page has each entry's author and time: only the member's joining and reads of others' entries are read.
        // (Looking the entries up again by id cost a tenth of the timeline under load, issue 35.)
        let others = entries.filter { $0.familyID == family && $0.authorID != nil && $0.authorID != user }
        guard !others.isEmpty else { return [] }
        return try await database.read { db in
            let rows = try db.rows(
                """
                SELECT m.createdAt AS joinedAt, r.entryId FROM memberships m
                LEFT JOIN entryReads r ON r.userId = m.userId AND r.entryId IN \(list: others.map(\.id))
                WHERE m.familyId = \(family) AND m.userId = \(user)
                """)
            guard let joined = try rows.first?.timestamp("joinedAt") else { return [] }
            let read = Set(try rows.compactMap { try $0.optionalString("entryId") })
            return Set(others.filter { $0.createdAt > joined && !read.contains($0.id.description) }.map(\.id))
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
                SELECT e.familyId, e.id, m.userId, \(now)
                FROM entries e JOIN memberships m ON m.familyId = e.familyId AND m.userId = \(user)
                WHERE e.familyId = \(family) AND e.authorId IS NOT NULL AND e.authorId <> \(user) AND e.createdAt > m.createdAt
                  AND NOT EXISTS (SELECT 1 FROM entryReads r WHERE r.entryId = e.id AND r.userId = \(user))
                ON CONFLICT DO NOTHING
                """)
        }
    }
}
