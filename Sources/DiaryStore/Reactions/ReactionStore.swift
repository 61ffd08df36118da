import Diary
import Foundation
import GRDB
import Persistence

/// `ReactionStore` over the SQLite database (`DiaryDatabase`).
public struct SQLiteReactionStore: ReactionStore {
    let database: DiaryDatabase

    public init(_ database: DiaryDatabase) { self.database = database }

    public func comments(family: FamilyID, on target: ReactionTarget) async throws -> [Comment] {
        try await database.writer.read { db in
            try Self.requireTarget(db, family: family, target)
            let column = target.column
            return try Row.fetchAll(
                db, sql: "\(Self.select) WHERE c.familyId = ? AND c.\(column) = ? ORDER BY c.createdAt, c.id",
                arguments: [family.sql, target.id]
            ).map(Self.decode)
        }
    }

    public func comment(family: FamilyID, id: CommentID) async throws -> Comment {
        try await database.writer.read { db in try Self.fetch(db, family: family, id: id) }
    }

    public func addComment(family: FamilyID, on target: ReactionTarget, author: UserID, text: String) async throws -> Comment {
        let text = try Comment.validText(text)
        let now = database.clock.now()
        return try await database.writer.write { db in
            try Self.requireTarget(db, family: family, target)
            let id = CommentID()
            try db.execute(
                sql: "INSERT INTO comments (id, familyId, \(target.column), authorId, body, createdAt, modifiedAt) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [id.sql, family.sql, target.id, author.sql, text, now.stored, now.stored])
            return try Self.fetch(db, family: family, id: id)
        }
    }

    public func editComment(family: FamilyID, id: CommentID, author: UserID, text: String) async throws -> Comment {
        let text = try Comment.validText(text)
        let now = database.clock.now()
        return try await database.writer.write { db in
            try db.execute(
                sql: "UPDATE comments SET body = ?, modifiedAt = ? WHERE id = ? AND familyId = ? AND authorId = ?",
                arguments: [text, now.stored, id.sql, family.sql, author.sql])
            guard db.changesCount == 1 else { throw StoreError.notFound(kind: "comment", id: id.description) }
            return try Self.fetch(db, family: family, id: id)
        }
    }

    public func deleteComment(family: FamilyID, id: CommentID, by user: UserID, asOwner: Bool) async throws {
        try await database.writer.write { db in
            try db.execute(
                sql: "DELETE FROM comments WHERE id = ? AND familyId = ? AND (authorId = ? OR ?)",
                arguments: [id.sql, family.sql, user.sql, asOwner])
            guard db.changesCount == 1 else { throw StoreError.notFound(kind: "comment", id: id.description) }
        }
    }

    public func hearts(family: FamilyID, on target: ReactionTarget) async throws -> [Heart] {
        try await database.writer.read { db in
            try Self.requireTarget(db, family: family, target)
            return try Self.hearts(db, family: family, target)
        }
    }

    public func setHeart(family: FamilyID, on target: ReactionTarget, user: UserID, on: Bool) async throws -> [Heart] {
        let now = database.clock.now()
        return try await database.writer.write { db in
            try Self.requireTarget(db, family: family, target)
            let column = target.column
            if on {
                try db.execute(
                    sql: "INSERT INTO hearts (id, familyId, \(column), userId, createdAt) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    arguments: [UUID().uuidString.lowercased(), family.sql, target.id, user.sql, now.stored])
            } else {
                try db.execute(
                    sql: "DELETE FROM hearts WHERE familyId = ? AND \(column) = ? AND userId = ?", arguments: [family.sql, target.id, user.sql])
            }
            return try Self.hearts(db, family: family, target)
        }
    }

    // MARK: Rows

    static let select = """
        SELECT c.*, u.username AS authorName FROM comments c LEFT JOIN users u ON u.id = c.authorId
        """


    static func requireTarget(_ db: Database, family: FamilyID, _ target: ReactionTarget) throws {
        switch target {
        case .entry(let id): _ = try FamilyTable.entries.row(db, family: family, id: id)
        case .photo(let id): _ = try FamilyTable.photos.row(db, family: family, id: id)
        }
    }

    static func fetch(_ db: Database, family: FamilyID, id: CommentID) throws -> Comment {
        guard let row = try Row.fetchOne(db, sql: "\(select) WHERE c.id = ? AND c.familyId = ?", arguments: [id.sql, family.sql]) else {
            throw StoreError.notFound(kind: "comment", id: id.description)
        }
        return try decode(row)
    }

    static func decode(_ row: Row) throws -> Comment {
        try readBack("comment") {
            guard let target = ReactionTarget(entry: try row.optionalID("entryId"), photo: try row.optionalID("photoId")) else {
                throw StoreError.unreadable("a comment on nothing")
            }
            return Comment(
                id: try row.id("id"), familyID: try row.id("familyId"), target: target, authorID: try row.optionalID("authorId"),
                authorName: row["authorName"], text: try row.decode(forColumn: "body"), createdAt: try row.timestamp("createdAt"),
                modifiedAt: try row.timestamp("modifiedAt"))
        }
    }

    static func hearts(_ db: Database, family: FamilyID, _ target: ReactionTarget) throws -> [Heart] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT h.userId, u.username, h.createdAt FROM hearts h JOIN users u ON u.id = h.userId
                WHERE h.familyId = ? AND h.\(target.column) = ? ORDER BY h.createdAt, u.username
                """,
            arguments: [family.sql, target.id]
        ).map { row in
            try readBack("heart") { Heart(userID: try row.id("userId"), userName: try row.decode(forColumn: "username"), createdAt: try row.timestamp("createdAt")) }
        }
    }
}
