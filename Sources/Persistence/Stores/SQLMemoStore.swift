import Diary
import Foundation

/// `MemoStore` over either engine.
public struct SQLMemoStore: MemoStore {
    let database: any StoreDatabase

    public init(_ database: any StoreDatabase) { self.database = database }

    public func list(family: FamilyID, after cursor: PageCursor?, limit: Int) async throws -> Page<Memo> {
        let paging = KeysetPage(sortKey: "modifiedAt", descending: true, cursor: cursor, limit: limit)
        return try await database.read { db in
            let (rows, next) = try FamilyTable.memos.page(db, family: family, paging: paging)
            return Page(items: try rows.map(Self.decode), next: next)
        }
    }

    public func get(family: FamilyID, id: MemoID) async throws -> Memo {
        try await database.read { db in try Self.decode(try FamilyTable.memos.row(db, family: family, id: id)) }
    }

    public func create(family: FamilyID, content: MemoContent) async throws -> Memo {
        let now = database.clock.now()
        let memo = Memo(familyID: family, content: content, createdAt: now, modifiedAt: now)
        try await database.write { db in
            try db.execute(
                """
                INSERT INTO memos (id, familyId, title, body, createdAt, modifiedAt)
                VALUES (\(memo.id), \(family), \(content.title), \(content.body), \(now), \(now))
                """)
            try db.searchIndex.refresh(db, memo: memo.id)
        }
        return memo
    }

    public func update(family: FamilyID, id: MemoID, content: MemoContent) async throws -> Memo {
        let now = database.clock.now()
        return try await database.write { db in
            let changed = try db.execute(
                """
                UPDATE memos SET title = \(content.title), body = \(content.body), modifiedAt = \(now)
                WHERE id = \(id) AND familyId = \(family)
                """)
            try FamilyTable.memos.requireChanged(changed, id: id)
            try db.searchIndex.refresh(db, memo: id)
            return try Self.decode(try FamilyTable.memos.row(db, family: family, id: id))
        }
    }

    public func delete(family: FamilyID, id: MemoID, by user: UserID?) async throws -> TrashItem {
        let deletion = Trashing.Deletion(family: family, user: user, at: database.clock.now())
        return try await database.write { db in try Trashing.memo(db, id, deletion) }
    }

    static func decode(_ row: SQLRow) throws -> Memo {
        try readBack("memo") {
            Memo(
                id: try row.id("id"), familyID: try row.id("familyId"),
                content: try MemoContent(title: try row.string("title"), body: try row.string("body")),
                createdAt: try row.timestamp("createdAt"), modifiedAt: try row.timestamp("modifiedAt"))
        }
    }
}
