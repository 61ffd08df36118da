import Diary
import DiaryStore
import Foundation
import Persistence

/// `ReactionStore` over PostgreSQL: the same statements as SQLite's.
public struct PostgresReactionStore: ReactionStore {
    let database: PostgresDatabase

    public init(_ database: PostgresDatabase) { self.database = database }

    public func comments(family: FamilyID, on target: ReactionTarget) async throws -> [Comment] {
        let rows = try await database.readAsync { db in
            try await Self.requireTarget(db, family: family, target)
            return try await db.rows(
                "\(Self.select) WHERE c.familyId = ? AND c.\(target.column) = ? ORDER BY c.createdAt, c.id", [family.sql, target.id])
        }
        return try rows.map(Self.decode)
    }

    public func comment(family: FamilyID, id: CommentID) async throws -> Comment {
        try await database.readAsync { db in try await Self.fetch(db, family: family, id: id) }
    }

    public func addComment(family: FamilyID, on target: ReactionTarget, author: UserID, text: String) async throws -> Comment {
        let text = try Comment.validText(text)
        let now = database.clock.now()
        return try await database.writeAsync { db in
            try await Self.requireTarget(db, family: family, target)
            let id = CommentID()
            try await db.execute(
                "INSERT INTO comments (id, familyId, \(target.column), authorId, body, createdAt, modifiedAt) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [id.sql, family.sql, target.id, author.sql, text, now.stored, now.stored])
            return try await Self.fetch(db, family: family, id: id)
        }
    }

    public func editComment(family: FamilyID, id: CommentID, author: UserID, text: String) async throws -> Comment {
        let text = try Comment.validText(text)
        let now = database.clock.now()
        return try await database.writeAsync { db in
            let changed = try await db.execute(
                "UPDATE comments SET body = ?, modifiedAt = ? WHERE id = ? AND familyId = ? AND authorId = ? RETURNING 1",
                [text, now.stored, id.sql, family.sql, author.sql])
            guard changed == 1 else { throw StoreError.notFound(kind: "comment", id: id.description) }
            return try await Self.fetch(db, family: family, id: id)
        }
    }

    public func deleteComment(family: FamilyID, id: CommentID, by user: UserID, asOwner: Bool) async throws {
        try await database.writeAsync { db in
            let deleted = try await db.execute(
                "DELETE FROM comments WHERE id = ? AND familyId = ? AND (authorId = ? OR ?) RETURNING 1", [id.sql, family.sql, user.sql, asOwner])
            guard deleted == 1 else { throw StoreError.notFound(kind: "comment", id: id.description) }
        }
    }

    public func hearts(family: FamilyID, on target: ReactionTarget) async throws -> [Heart] {
        try await database.readAsync { db in
            try await Self.requireTarget(db, family: family, target)
            return try await Self.hearts(db, family: family, target)
        }
    }

    public func setHeart(family: FamilyID, on target: ReactionTarget, user: UserID, on: Bool) async throws -> [Heart] {
        let now = database.clock.now()
        return try await database.writeAsync { db in
            try await Self.requireTarget(db, family: family, target)
            let column = target.column
            if on {
                try await db.execute(
                    "INSERT INTO hearts (id, familyId, \(column), userId, createdAt) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    [UUID().uuidString.lowercased(), family.sql, target.id, user.sql, now.stored])
            } else {
                try await db.execute("DELETE FROM hearts WHERE familyId = ? AND \(column) = ? AND userId = ?", [family.sql, target.id, user.sql])
            }
            return try await Self.hearts(db, family: family, target)
        }
    }

    // MARK: Rows

    static let select = "SELECT c.*, u.username AS authorName FROM comments c LEFT JOIN users u ON u.id = c.authorId"


    static func requireTarget(_ db: PostgresTransaction, family: FamilyID, _ target: ReactionTarget) async throws {
        switch target {
        case .entry(let id): _ = try await PostgresFamilyTable.entries.row(db, family: family, id: id)
        case .photo(let id): _ = try await PostgresFamilyTable.photos.row(db, family: family, id: id)
        }
    }

    static func fetch(_ db: PostgresTransaction, family: FamilyID, id: CommentID) async throws -> Comment {
        guard let row = try await db.row("\(select) WHERE c.id = ? AND c.familyId = ?", [id.sql, family.sql]) else {
            throw StoreError.notFound(kind: "comment", id: id.description)
        }
        return try decode(row)
    }

    static func decode(_ row: PostgresRecord) throws -> Comment {
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

    static func hearts(_ db: PostgresTransaction, family: FamilyID, _ target: ReactionTarget) async throws -> [Heart] {
        try await db.rows(
            """
            SELECT h.userId, u.username, h.createdAt FROM hearts h JOIN users u ON u.id = h.userId
            WHERE h.familyId = ? AND h.\(target.column) = ? ORDER BY h.createdAt, u.username
            """, [family.sql, target.id]
        ).map { row in
            try readBack("heart") { Heart(userID: try row.id("userId"), userName: try row.string("username"), createdAt: try row.timestamp("createdAt")) }
        }
    }
}
