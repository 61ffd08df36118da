import Diary
import Foundation
import GRDB
import Persistence

/// `MemoStore` over the SQLite database (`DiaryDatabase`).
public struct SQLiteMemoStore: MemoStore {
    let database: DiaryDatabase

    public init(_ database: DiaryDatabase) { self.database = database }

    public func list(family: FamilyID, after cursor: PageCursor?, limit: Int) async throws -> Page<Memo> {
        let paging = KeysetPage(sortKey: "modifiedAt", descending: true, cursor: cursor, limit: limit)
        return try await database.writer.read { db in
            let (rows, next) = try FamilyTable.memos.page(db, family: family, paging: paging)
            return Page(items: try rows.map(decodeMemo), next: next)
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
            try SearchIndex.refresh(db, memo: memo.id)
        }
        return memo
    }

    public func update(family: FamilyID, id: MemoID, content: MemoContent) async throws -> Memo {
        let now = database.clock.now()
        return try await database.writer.write { db in
            try db.execute(
                sql: "UPDATE memos SET title = ?, body = ?, modifiedAt = ? WHERE id = ? AND familyId = ?",
                arguments: [content.title, content.body, now.stored, id.sql, family.sql])
            try FamilyTable.memos.requireChanged(db, id: id)
            try SearchIndex.refresh(db, memo: id)
            return try fetch(db, family: family, id: id)
        }
    }

    public func delete(family: FamilyID, id: MemoID) async throws {
        try await database.writer.write { db in
            try FamilyTable.memos.delete(db, family: family, id: id)
        }
    }

    private func fetch(_ db: Database, family: FamilyID, id: MemoID) throws -> Memo {
        try decodeMemo(try FamilyTable.memos.row(db, family: family, id: id))
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
