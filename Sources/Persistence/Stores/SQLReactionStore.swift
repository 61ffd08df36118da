import Diary
import Foundation

/// `ReactionStore` over either engine.
public struct SQLReactionStore: ReactionStore {
    let database: any StoreDatabase

    public init(_ database: any StoreDatabase) { self.database = database }

    public func comments(family: FamilyID, on target: ReactionTarget) async throws -> [Comment] {
        try await database.read { db in
            try Self.requireTarget(db, family: family, target)
            return try db.rows(
                "\(Self.select) WHERE c.familyId = \(family) AND c.\(raw: target.column) = \(target.id) ORDER BY c.createdAt, c.id"
            ).map(Self.decode)
        }
    }

    public func comment(family: FamilyID, id: CommentID) async throws -> Comment {
        try await database.read { db in try Self.fetch(db, family: family, id: id) }
    }

    public func addComment(family: FamilyID, on target: ReactionTarget, author: UserID, text: String) async throws -> Comment {
        let text = try Comment.validText(text)
        let now = database.clock.now()
        return try await database.write { db in
            try Self.requireTarget(db, family: family, target)
            let id = CommentID()
            try db.execute(
                """
                INSERT INTO comments (id, familyId, \(raw: target.column), authorId, body, createdAt, modifiedAt)
                VALUES (\(id), \(family), \(target.id), \(author), \(text), \(now), \(now))
                """)
            return try Self.fetch(db, family: family, id: id)
        }
    }

    public func editComment(family: FamilyID, id: CommentID, author: UserID, text: String) async throws -> Comment {
        let text = try Comment.validText(text)
        let now = database.clock.now()
        return try await database.write { db in
            let changed = try db.execute(
                "UPDATE comments SET body = \(text), modifiedAt = \(now) WHERE id = \(id) AND familyId = \(family) AND authorId = \(author)")
            guard changed == 1 else { throw StoreError.notFound(kind: "comment", id: id.description) }
            return try Self.fetch(db, family: family, id: id)
        }
    }

    public func deleteComment(family: FamilyID, id: CommentID, by user: UserID, asOwner: Bool) async throws -> TrashItem {
        let deletion = Trashing.Deletion(family: family, user: user, at: database.clock.now())
        return try await database.write { db in try Trashing.comment(db, id, asOwner: asOwner, deletion) }
    }

    public func hearts(family: FamilyID, on target: ReactionTarget) async throws -> [Heart] {
        try await database.read { db in
            try Self.requireTarget(db, family: family, target)
            return try Self.hearts(db, family: family, target)
        }
    }

    public func setHeart(family: FamilyID, on target: ReactionTarget, user: UserID, on: Bool) async throws -> [Heart] {
        let now = database.clock.now()
        return try await database.write { db in
            try Self.requireTarget(db, family: family, target)
            if on {
                try db.execute(
                    """
                    INSERT INTO hearts (id, familyId, \(raw: target.column), userId, createdAt)
                    VALUES (\(UUID().uuidString.lowercased()), \(family), \(target.id), \(user), \(now)) ON CONFLICT DO NOTHING
                    """)
            } else {
                try db.execute("DELETE FROM hearts WHERE familyId = \(family) AND \(raw: target.column) = \(target.id) AND userId = \(user)")
            }
            return try Self.hearts(db, family: family, target)
        }
    }

    // MARK: Rows

    /// A comment's columns with its author's name, as `decode` reads them.
    static let select: SQL = "SELECT c.*, u.username AS authorName FROM comments c LEFT JOIN users u ON u.id = c.authorId"

    static func requireTarget(_ db: any SQLSession, family: FamilyID, _ target: ReactionTarget) throws {
        switch target {
        case .entry(let id): _ = try FamilyTable.entries.row(db, family: family, id: id)
        case .photo(let id): _ = try FamilyTable.photos.row(db, family: family, id: id)
        }
    }

    static func fetch(_ db: any SQLSession, family: FamilyID, id: CommentID) throws -> Comment {
        guard let row = try db.row("\(select) WHERE c.id = \(id) AND c.familyId = \(family)") else {
            throw StoreError.notFound(kind: "comment", id: id.description)
        }
        return try decode(row)
    }

    static func decode(_ row: SQLRow) throws -> Comment {
        try readBack("comment") {
            guard let target = ReactionTarget(entry: try row.optionalID("entryId"), photo: try row.optionalID("photoId")) else {
                throw StoreError.unreadable("a comment on nothing")
            }
            return Comment(
                id: try row.id("id"), familyID: try row.id("familyId"), target: target, authorID: try row.optionalID("authorId"),
                authorName: try row.optionalString("authorName"), text: try row.string("body"), createdAt: try row.timestamp("createdAt"),
                modifiedAt: try row.timestamp("modifiedAt"))
        }
    }

    static func hearts(_ db: any SQLSession, family: FamilyID, _ target: ReactionTarget) throws -> [Heart] {
        try db.rows(
            """
            SELECT h.userId, u.username, h.createdAt FROM hearts h JOIN users u ON u.id = h.userId
            WHERE h.familyId = \(family) AND h.\(raw: target.column) = \(target.id) ORDER BY h.createdAt, u.username
            """
        ).map { row in
            try readBack("heart") {
                Heart(userID: try row.id("userId"), userName: try row.string("username"), createdAt: try row.timestamp("createdAt"))
            }
        }
    }
}
