import Diary
import Persistence

/// Keeps `searchDocuments` and `searchTokens` in step with entries and memos, inside the transaction of each write
/// (as `SearchIndex` does for SQLite's FTS5 index). The tokens are those SQLite's index holds (`SearchTokens`).
enum PostgresSearchIndex {
    /// Title, body, tags, place: the columns in SQLite's order, numbered 1 to 4 in `searchTokens.field`.
    static let weights: [Double] = [4.0, 1.0, 3.0, 2.0]

    /// Every document made again from the entries and memos, a thousand at a time (two statements a batch), in the
    /// order they were written: document IDs are the recency search windows go by, as SQLite's rowids are.
    static func refreshAll(_ db: PostgresTransaction) async throws {
        // Entries with coordinates but no place region yet (restored from a backup made before schema v16).
        let unnamed = try await db.rows(
            "SELECT id, latitude, longitude FROM entries WHERE placeRegion IS NULL AND latitude IS NOT NULL AND longitude IS NOT NULL")
        for row in unnamed {
            guard let region = PlaceRegion.text(latitude: try row.optionalDouble("latitude"), longitude: try row.optionalDouble("longitude"))
            else { continue }
            try await db.execute("UPDATE entries SET placeRegion = ? WHERE id = ?", [region, try row.string("id")])
        }
        try await db.execute("DELETE FROM searchDocuments")
        for (table, key, select) in [
            ("entries", "entryId", """
                SELECT id, familyId, createdAt, title, body, trim(coalesce(placeName, '') || ' ' || coalesce(placeRegion, '')) AS place,
                    coalesce((SELECT string_agg(tags.name, ' ' ORDER BY entryTags.position) FROM entryTags
                        JOIN tags ON tags.id = entryTags.tagId WHERE entryTags.entryId = entries.id), '') AS tags
                """),
            ("memos", "memoId", "SELECT id, familyId, createdAt, title, body, '' AS place, '' AS tags"),
        ] {
            var after: (createdAt: String, id: String) = ("", "")
            while true {
                let rows = try await db.rows(
                    "\(select) FROM \(table) WHERE (createdAt, id) > (?, ?) ORDER BY createdAt, id LIMIT 1000", [after.createdAt, after.id])
                guard let last = rows.last else { break }
                after = (try last.string("createdAt"), try last.string("id"))
                try await storeBatch(
                    db, key: key,
                    documents: try rows.map { row in
                        (
                            family: try row.string("familyId"), id: try row.string("id"),
                            columns: [try row.string("title"), try row.string("body"), try row.string("tags"), try row.string("place")]
                        )
                    })
            }
        }
    }

    /// New documents (their old ones deleted) and their tokens, in two statements.
    private static func storeBatch(
        _ db: PostgresTransaction, key: String, documents: [(family: String, id: String, columns: [String])]
    ) async throws {
        guard !documents.isEmpty else { return }
        let inserted = try await db.rows(
            """
            INSERT INTO searchDocuments (familyId, \(key), title, body, tags, place)
            SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[])
            RETURNING id, \(key) AS owner
            """,
            [documents.map(\.family), documents.map(\.id), documents.map { $0.columns[0] }, documents.map { $0.columns[1] },
                documents.map { $0.columns[2] }, documents.map { $0.columns[3] }])
        var documentIDs: [String: Int] = [:]
        for row in inserted { documentIDs[try row.string("owner")] = try row.int("id") }
        var ids: [Int] = [], families: [String] = [], tokens: [String] = [], fields: [Int16] = [], positions: [String] = []
        for document in documents {
            guard let id = documentIDs[document.id] else { throw StoreError.unreadable("a search document just written") }
            for token in try SearchTokens.document(document.columns) {
                ids.append(id)
                families.append(document.family)
                tokens.append(token.text)
                fields.append(Int16(token.column + 1))
                positions.append(token.positions.map(String.init).joined(separator: ","))
            }
        }
        guard !tokens.isEmpty else { return }
        try await db.execute(
            """
            INSERT INTO searchTokens (documentId, familyId, token, field, positions)
            SELECT documentId, familyId, token, field, string_to_array(positions, ',')::integer[]
            FROM unnest(?::bigint[], ?::text[], ?::text[], ?::smallint[], ?::text[]) AS t(documentId, familyId, token, field, positions)
            """,
            [ids, families, tokens, fields, positions])
    }

    // A document as its entry or memo is written, inside the store's transaction (`PostgresSearchIndexing`).

    static func refresh(_ db: PostgresSession, entry: EntryID) throws {
        guard let row = try db.records(entrySource, [entry.sql]).first else { return }
        try store(
            db, family: try row.string("familyId"), key: ("entryId", entry.sql),
            columns: [try row.string("title"), try row.string("body"), try row.string("tags"), try row.string("place")])
    }

    static func refresh(_ db: PostgresSession, memo: MemoID) throws {
        guard let row = try db.records("SELECT familyId, title, body FROM memos WHERE id = ?", [memo.sql]).first else { return }
        try store(db, family: try row.string("familyId"), key: ("memoId", memo.sql), columns: [try row.string("title"), try row.string("body"), "", ""])
    }

    private static func store(_ db: PostgresSession, family: String, key: (column: String, id: String), columns: [String]) throws {
        let tokens = try SearchTokens.document(columns)
        guard let document = try db.records(upsertDocument(key.column), [family, key.id] + columns).first?.optionalInt(at: 0) else {
            throw StoreError.unreadable("a search document just written")
        }
        _ = try db.records("DELETE FROM searchTokens WHERE documentId = ?", [document])
        guard !tokens.isEmpty else { return }
        _ = try db.records(insertTokens, tokenArguments(document: document, family: family, tokens: tokens))
    }

    /// An entry's indexed text: title, body, tags in order, place.
    static let entrySource = """
        SELECT familyId, title, body, trim(coalesce(placeName, '') || ' ' || coalesce(placeRegion, '')) AS place,
            coalesce((SELECT string_agg(tags.name, ' ' ORDER BY entryTags.position) FROM entryTags
                JOIN tags ON tags.id = entryTags.tagId WHERE entryTags.entryId = entries.id), '') AS tags
        FROM entries WHERE id = ?
        """

    static func upsertDocument(_ column: String) -> String {
        """
        INSERT INTO searchDocuments (familyId, \(column), title, body, tags, place) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (\(column)) DO UPDATE SET title = excluded.title, body = excluded.body, tags = excluded.tags,
            place = excluded.place
        RETURNING id
        """
    }

    /// One statement for all of a document's tokens.
    static let insertTokens = """
        INSERT INTO searchTokens (documentId, familyId, token, field, positions)
        SELECT ?, ?, token, field, string_to_array(positions, ',')::integer[]
        FROM unnest(?::text[], ?::smallint[], ?::text[]) AS t(token, field, positions)
        """

    static func tokenArguments(document: Int, family: String, tokens: [SearchTokens.Token]) -> [SQLArgument] {
        [document, family, tokens.map(\.text), tokens.map { Int16($0.column + 1) }, tokens.map { $0.positions.map(String.init).joined(separator: ",") }]
    }
}

