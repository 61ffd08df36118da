import Diary
import Foundation
import GRDB

/// A family's memos, most recently changed first.
public struct MemoStore: Sendable {
    let database: DiaryDatabase

    public init(_ database: DiaryDatabase) { self.database = database }

    public func list(family: FamilyID, after cursor: PageCursor?, limit: Int) async throws -> Page<Memo> {
        let paging = KeysetPage(sortKey: "modifiedAt", descending: true, cursor: cursor, limit: limit)
        return try await database.writer.read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT *, modifiedAt AS pageKey FROM memos WHERE familyId = ?" + paging.condition + paging.orderAndLimit,
                arguments: [family.sql] + paging.arguments)
            return try paging.page(rows, decodeMemo)
        }
    }

    public func get(family: FamilyID, id: MemoID) async throws -> Memo {
        try await database.writer.read { db in try fetch(db, family: family, id: id) }
    }

    public func create(family: FamilyID, content: MemoContent) async throws -> Memo {
        let now = database.clock.now()
        let memo = Memo(familyID: family, content: content, createdAt: now, modifiedAt: now)
        try await database.writer.write { db in
            try db.execute(
                sql: "INSERT INTO memos (id, familyId, title, body, createdAt, modifiedAt) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [memo.id.sql, family.sql, content.title, content.body, now.stored, now.stored])
        }
        return memo
    }

    public func update(family: FamilyID, id: MemoID, content: MemoContent) async throws -> Memo {
        let now = database.clock.now()
        return try await database.writer.write { db in
            try db.execute(
                sql: "UPDATE memos SET title = ?, body = ?, modifiedAt = ? WHERE id = ? AND familyId = ?",
                arguments: [content.title, content.body, now.stored, id.sql, family.sql])
            guard db.changesCount == 1 else { throw StoreError.notFound(kind: "memo", id: id.description) }
            return try fetch(db, family: family, id: id)
        }
    }

    public func delete(family: FamilyID, id: MemoID) async throws {
        try await database.writer.write { db in
            try db.execute(sql: "DELETE FROM memos WHERE id = ? AND familyId = ?", arguments: [id.sql, family.sql])
            guard db.changesCount == 1 else { throw StoreError.notFound(kind: "memo", id: id.description) }
        }
    }

    private func fetch(_ db: Database, family: FamilyID, id: MemoID) throws -> Memo {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM memos WHERE id = ? AND familyId = ?", arguments: [id.sql, family.sql])
        else { throw StoreError.notFound(kind: "memo", id: id.description) }
        return try decodeMemo(row)
    }

    private func decodeMemo(_ row: Row) throws -> Memo {
        try readBack("memo") {
            Memo(
                id: try row.id("id"), familyID: try row.id("familyId"),
                content: try MemoContent(title: try row.decode(forColumn: "title"), body: try row.decode(forColumn: "body")),
                createdAt: try row.timestamp("createdAt"), modifiedAt: try row.timestamp("modifiedAt"))
        }
    }
}
