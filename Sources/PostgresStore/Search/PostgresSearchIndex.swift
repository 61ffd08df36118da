import Diary
import DiaryStore

/// Keeps `searchDocuments` and `searchTokens` in step with entries and memos, inside the transaction of each write
/// (as `SearchIndex` does for SQLite's FTS5 index). The tokens are those SQLite's index holds (`SearchTokens`).
enum PostgresSearchIndex {
    /// Title, body, tags, place: the columns in SQLite's order, numbered 1 to 4 in `searchTokens.field`.
    static let weights: [Double] = [4.0, 1.0, 3.0, 2.0]

    static func refresh(_ db: PostgresTransaction, entry: EntryID) async throws {
        guard let row = try await db.row(
            """
            SELECT familyId, title, body, coalesce(placeName, '') AS place,
                coalesce((SELECT string_agg(tags.name, ' ' ORDER BY entryTags.position) FROM entryTags
                    JOIN tags ON tags.id = entryTags.tagId WHERE entryTags.entryId = entries.id), '') AS tags
            FROM entries WHERE id = ?
            """,
            [entry.sql])
        else { return }
        try await store(
            db, family: try row.string("familyId"), key: ("entryId", entry.sql),
            columns: [try row.string("title"), try row.string("body"), try row.string("tags"), try row.string("place")])
    }

    static func refresh(_ db: PostgresTransaction, memo: MemoID) async throws {
        guard let row = try await db.row("SELECT familyId, title, body FROM memos WHERE id = ?", [memo.sql]) else { return }
        try await store(
            db, family: try row.string("familyId"), key: ("memoId", memo.sql),
            columns: [try row.string("title"), try row.string("body"), "", ""])
    }

    /// Every document made again from the entries and memos.
    static func refreshAll(_ db: PostgresTransaction) async throws {
        try await db.execute("DELETE FROM searchDocuments")
        for id in try await db.strings("SELECT id FROM entries ORDER BY createdAt, id") {
            if let entry = EntryID(id) { try await refresh(db, entry: entry) }
        }
        for id in try await db.strings("SELECT id FROM memos ORDER BY createdAt, id") {
            if let memo = MemoID(id) { try await refresh(db, memo: memo) }
        }
    }

    private static func store(_ db: PostgresTransaction, family: String, key: (column: String, id: String), columns: [String]) async throws {
        let tokens = try SearchTokens.document(columns)
        guard let document = try await db.int(
            """
            INSERT INTO searchDocuments (familyId, \(key.column), title, body, tags, place) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (\(key.column)) DO UPDATE SET title = excluded.title, body = excluded.body, tags = excluded.tags,
                place = excluded.place
            RETURNING id
            """,
            [family, key.id] + columns)
        else { throw StoreError.unreadable("a search document just written") }
        try await db.execute("DELETE FROM searchTokens WHERE documentId = ?", [document])
        guard !tokens.isEmpty else { return }
        // One statement for all of a document's tokens.
        try await db.execute(
            """
            INSERT INTO searchTokens (documentId, familyId, token, field, positions)
            SELECT ?, ?, token, field, string_to_array(positions, ',')::integer[]
            FROM unnest(?::text[], ?::smallint[], ?::text[]) AS t(token, field, positions)
            """,
            [document, family, tokens.map(\.text), tokens.map { Int16($0.column + 1) },
                tokens.map { $0.positions.map(String.init).joined(separator: ",") }])
    }
}
