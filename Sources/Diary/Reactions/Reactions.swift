import Foundation

/// What a comment or heart is on: an entry, or one photo (or clip) of the family.
public enum ReactionTarget: Hashable, Sendable {
    case entry(EntryID)
    case photo(PhotoID)

    /// `entry` or `photo`: the word in errors and routes.
    public var kind: String {
        switch self {
        case .entry: "entry"
        case .photo: "photo"
        }
    }

    /// The one of `entry` and `photo` that is there (a stored row names exactly one).
    public init?(entry: EntryID?, photo: PhotoID?) {
        switch (entry, photo) {
        case (let entry?, nil): self = .entry(entry)
        case (nil, let photo?): self = .photo(photo)
        default: return nil
        }
    }

    /// The column that names the target in the `comments` and `hearts` tables of either engine.
    public var column: String {
        switch self {
        case .entry: "entryId"
        case .photo: "photoId"
        }
    }

    public var id: String {
        switch self {
        case .entry(let id): id.description
        case .photo(let id): id.description
        }
    }
}

/// A member's words under an entry or a photo. Every member may comment, viewers too (grandparents answer); the
/// author edits their own, the author or an owner deletes.
public struct Comment: Hashable, Sendable {
    public let id: CommentID
    public let familyID: FamilyID
    public let target: ReactionTarget
    /// Nil once the author's account is gone ("a former member").
    public let authorID: UserID?
    public let authorName: String?
    public var text: String
    public let createdAt: Date
    public var modifiedAt: Date

    public init(
        id: CommentID = CommentID(), familyID: FamilyID, target: ReactionTarget, authorID: UserID?, authorName: String?, text: String,
        createdAt: Date, modifiedAt: Date
    ) {
        self.id = id
        self.familyID = familyID
        self.target = target
        self.authorID = authorID
        self.authorName = authorName
        self.text = text
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
    }

    public static let maxLength = 2_000

    /// A comment's text as written: 1–2,000 characters once trimmed, no NUL (shown escaped, as entries are).
    public static func validText(_ text: String) throws(ValidationError) -> String {
        try Validate.requiredText(text, field: "text", maxLength: maxLength)
    }
}

/// One member's heart on an entry or photo: at most one each.
public struct Heart: Hashable, Sendable {
    public let userID: UserID
    public let userName: String
    public let createdAt: Date

    public init(userID: UserID, userName: String, createdAt: Date) {
        self.userID = userID
        self.userName = userName
        self.createdAt = createdAt
    }
}

/// A family's comments and hearts. Every method is scoped to the family: a target of another family is not found.
public protocol ReactionStore: Sendable {
    /// The target's comments, oldest first.
    func comments(family: FamilyID, on target: ReactionTarget) async throws -> [Comment]

    func comment(family: FamilyID, id: CommentID) async throws -> Comment

    func addComment(family: FamilyID, on target: ReactionTarget, author: UserID, text: String) async throws -> Comment

    /// Only the author changes a comment (`StoreError.notFound` for anyone else: they cannot tell it exists apart).
    func editComment(family: FamilyID, id: CommentID, author: UserID, text: String) async throws -> Comment

    /// The author, or an owner (`asOwner`), moves a comment to the trash.
    func deleteComment(family: FamilyID, id: CommentID, by user: UserID, asOwner: Bool) async throws -> TrashItem

    /// The target's hearts, in the order given.
    func hearts(family: FamilyID, on target: ReactionTarget) async throws -> [Heart]

    /// Sets or takes back `user`'s heart (at most one per member and target); returns the target's hearts.
    func setHeart(family: FamilyID, on target: ReactionTarget, user: UserID, on: Bool) async throws -> [Heart]
}
