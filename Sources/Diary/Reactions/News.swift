import Foundation

/// What one author wrote that a member has not seen yet: "엄마가 일기 2개와 사진 8장을 올렸어요".
public struct NewsLine: Hashable, Sendable {
    public let authorID: UserID
    public let authorName: String
    /// Unread entries, counted up to `counted` (the newest), and their photos.
    public let entries: Int
    public let photos: Int

    /// How many of an author's unread entries are counted: a grandparent who never opens an entry has a whole diary
    /// of news, and "more than 1,000" says it as well as the number (the count reads an index entry per entry).
    public static let counted = 1_000

    /// Whether there are at least `counted` (and perhaps many more).
    public var isAtLeastCounted: Bool { entries >= Self.counted }

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

    /// Which of `entries` (as a page has just read them) are new to `user`.
    func unread(family: FamilyID, user: UserID, among entries: [Entry]) async throws -> Set<EntryID>

    /// `user` has seen these (ids of other families are ignored).
    func markRead(family: FamilyID, user: UserID, entries: [EntryID]) async throws

    /// `user` has seen everything there is.
    func markAllRead(family: FamilyID, user: UserID) async throws
}
