import Foundation

/// What one author wrote that a member has not seen yet: "엄마가 일기 2개와 사진 8장을 올렸어요".
public struct NewsLine: Hashable, Sendable {
    public let authorID: UserID
    public let authorName: String
    public let entries: Int
    public let photos: Int

    public init(authorID: UserID, authorName: String, entries: Int, photos: Int) {
        self.authorID = authorID
        self.authorName = authorName
        self.entries = entries
        self.photos = photos
    }
}

/// What is new to each member of a family: the entries others wrote since the member joined that the member has not
/// opened. Entries without an author (imports, entries older than authors) are never new.
public protocol NewsStore: Sendable {
    /// By author, most entries first.
    func news(family: FamilyID, user: UserID) async throws -> [NewsLine]

    /// Which of `entries` are new to `user`.
    func unread(family: FamilyID, user: UserID, among entries: [EntryID]) async throws -> Set<EntryID>

    /// `user` has seen these (ids of other families are ignored).
    func markRead(family: FamilyID, user: UserID, entries: [EntryID]) async throws

    /// `user` has seen everything there is.
    func markAllRead(family: FamilyID, user: UserID) async throws
}

/// The SQL both engines share. Every statement's first four arguments are user, family, user, user.
public enum NewsSQL {
    /// Joins and conditions that keep the entries new to a member.
    static let unreadFrom = """
        FROM entries e JOIN memberships m ON m.familyId = e.familyId AND m.userId = ?
        WHERE e.familyId = ? AND e.authorId IS NOT NULL AND e.authorId <> ? AND e.createdAt > m.createdAt
          AND NOT EXISTS (SELECT 1 FROM entryReads r WHERE r.entryId = e.id AND r.userId = ?)
        """

    /// authorId, username, entries, photos — by author.
    public static let news = """
        SELECT e.authorId, (SELECT u.username FROM users u WHERE u.id = e.authorId) AS username, CAST(count(*) AS BIGINT) AS entries,
            CAST(sum((SELECT count(*) FROM entryPhotos p WHERE p.entryId = e.id)) AS BIGINT) AS photos
        \(unreadFrom)
        GROUP BY e.authorId ORDER BY count(*) DESC, username
        """

    /// The ids among a list (`IN (…)` appended by the caller).
    public static let unreadIDs = "SELECT e.id \(unreadFrom) AND e.id IN "

    /// Marks every new entry read; a fifth argument: the time.
    public static let readAll = """
        INSERT INTO entryReads (familyId, entryId, userId, readAt)
        SELECT e.familyId, e.id, m.userId, ? \(unreadFrom)
        ON CONFLICT DO NOTHING
        """
}
