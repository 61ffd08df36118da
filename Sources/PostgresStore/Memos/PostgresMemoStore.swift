import Diary
import DiaryStore
import Foundation
import Persistence

/// `MemoStore` over PostgreSQL.
public struct PostgresMemoStore: MemoStore {
    let database: PostgresDatabase

    public init(_ database: PostgresDatabase) { self.database = database }

    public func list(family: FamilyID, after cursor: PageCursor?, limit: Int) async throws -> Page<Memo> {
        let paging = PostgresKeysetPage(sortKey: "modifiedAt", descending: true, cursor: cursor, limit: limit)
        let (rows, next) = try await database.readAsync { db in try await PostgresFamilyTable.memos.page(db, family: family, paging: paging) }
        return Page(items: try rows.map(Self.decodeMemo), next: next)
    }

    public func get(family: FamilyID, id: MemoID) async throws -> Memo {
        try Self.decodeMemo(try await database.readAsync { db in try await PostgresFamilyTable.memos.row(db, family: family, id: id) })
    }

    public func create(family: FamilyID, content: MemoContent) async throws -> Memo {
        let now = database.clock.now()
        let memo = Memo(familyID: family, content: content, createdAt: now, modifiedAt: now)
        try await database.writeAsync { db in
            try await db.execute(
                "INSERT INTO memos (id, familyId, title, body, createdAt, modifiedAt) VALUES (?, ?, ?, ?, ?, ?)",
                [memo.id.sql, family.sql, content.title, content.body, now.stored, now.stored])
            try await PostgresSearchIndex.refresh(db, memo: memo.id)
        }
        return memo
    }

    public func update(family: FamilyID, id: MemoID, content: MemoContent) async throws -> Memo {
        let now = database.clock.now()
        let row = try await database.writeAsync { db in
            let changed = try await db.execute(
                "UPDATE memos SET title = ?, body = ?, modifiedAt = ? WHERE id = ? AND familyId = ? RETURNING 1",
                [content.title, content.body, now.stored, id.sql, family.sql])
            guard changed == 1 else { throw PostgresFamilyTable.memos.notFound(id) }
            try await PostgresSearchIndex.refresh(db, memo: id)
            return try await PostgresFamilyTable.memos.row(db, family: family, id: id)
        }
        return try Self.decodeMemo(row)
    }

    public func delete(family: FamilyID, id: MemoID) async throws {
        try await database.writeAsync { db in try await PostgresFamilyTable.memos.delete(db, family: family, id: id) }
    }

    private static func decodeMemo(_ row: PostgresRecord) throws -> Memo {
        try readBack("memo") {
            Memo(
                id: try row.id("id"), familyID: try row.id("familyId"),
                content: try MemoContent(title: try row.string("title"), body: try row.string("body")),
                createdAt: try row.timestamp("createdAt"), modifiedAt: try row.timestamp("modifiedAt"))
        }
    }
}
