import Diary
import NIOCore
import Persistence

/// Keeps `searchDocuments` and `searchTokens` in step with entries and memos, inside the transaction of each write
/// (as `SearchIndex` does for SQLite's FTS5 index). The tokens are those SQLite's index holds (`SearchTokens`).
enum PostgresSearchIndex {
    /// Title, body, tags, place: the columns in SQLite's order, numbered 1 to 4 in `searchTokens.field`.
    static let weights: [Double] = [4.0, 1.0, 3.0, 2.0]

    /// Every document made again after a restore wrote the rows. The token table's keys and lookup index are
    /// dropped first and made once at the end, each from one sorted pass: kept up to date row by row (a foreign-key
    /// check and two B-tree insertions for each of ten million tokens) they made the restore of 100,000 entries
    /// take three minutes.
    static func rebuild(_ db: PostgresTransaction) async throws {
        try await db.execute("DROP INDEX searchTokens_lookup")
        try await db.execute("ALTER TABLE searchTokens DROP CONSTRAINT searchtokens_documentid_fkey, DROP CONSTRAINT searchtokens_pkey")
        try await refreshAll(db)
        try await db.execute(
            """
            ALTER TABLE searchTokens ADD CONSTRAINT searchtokens_pkey PRIMARY KEY (documentId, field, token),
                ADD CONSTRAINT searchtokens_documentid_fkey FOREIGN KEY (documentId) REFERENCES searchDocuments(id) ON DELETE CASCADE
            """)
        try await db.execute(lookupIndex)
    }

    /// Exact tokens and prefixes (`token >= 'bea' AND token < 'bea\u{10FFFF}'` in the C collation is a range scan),
    /// with each row's column and count, so a one-token term is matched and counted from the index alone.
    static let lookupIndex = "CREATE INDEX searchTokens_lookup ON searchTokens(familyId, token, documentId) INCLUDE (field, occurrences)"

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
                SELECT id, familyId, title, body, trim(coalesce(placeName, '') || ' ' || coalesce(placeRegion, '')) AS place,
                    coalesce((SELECT string_agg(tags.name, ' ' ORDER BY entryTags.position) FROM entryTags
                        JOIN tags ON tags.id = entryTags.tagId WHERE entryTags.entryId = entries.id), '') AS tags
                """),
            ("memos", "memoId", "SELECT id, familyId, title, body, '' AS place, '' AS tags"),
        ] {
            // The order first (one sort), then the documents a thousand at a time by id; each batch is tokenized on
            // another thread while the database reads the next and writes the last.
            let order = try await db.strings("SELECT id FROM \(table) ORDER BY createdAt, id")
            let batches = stride(from: 0, to: order.count, by: 1_000).map { Array(order[$0..<min($0 + 1_000, order.count)]) }
            var tokenizing: Task<[Document], any Error>?
            for ids in batches {
                let read = try await documents(db, ids: ids, select: "\(select) FROM \(table) WHERE id = ANY(?)")
                let previous = try await tokenizing?.value
                tokenizing = Task.detached { try read.map { try $0.tokenized() } }
                if let previous { try await store(db, key: key, documents: previous) }
            }
            if let last = try await tokenizing?.value { try await store(db, key: key, documents: last) }
        }
    }

    /// A document being indexed: its owner's family and ID, its four columns, and (once made) its tokens.
    struct Document: Sendable {
        let family: String
        let id: String
        let columns: [String]
        var tokens: [SearchTokens.Token] = []

        func tokenized() throws -> Document {
            var document = self
            document.tokens = try SearchTokens.document(columns)
            return document
        }
    }

    /// The documents of `ids`, in their order.
    private static func documents(_ db: PostgresTransaction, ids: [String], select: String) async throws -> [Document] {
        var byID: [String: Document] = [:]
        for row in try await db.rows(select, [ids]) {
            let id = try row.string("id")
            byID[id] = Document(
                family: try row.string("familyId"), id: id,
                columns: [try row.string("title"), try row.string("body"), try row.string("tags"), try row.string("place")])
        }
        return ids.compactMap { byID[$0] }
    }

    /// Tokenized documents written: the documents in one statement (their IDs in the given order), the tokens in
    /// one `COPY`.
    private static func store(_ db: PostgresTransaction, key: String, documents: [Document]) async throws {
        guard !documents.isEmpty else { return }
        let inserted = try await db.rows(
            """
            INSERT INTO searchDocuments (familyId, \(key), title, body, tags, place)
            SELECT f, k, t, b, g, p FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[]) WITH ORDINALITY AS d(f, k, t, b, g, p, n)
            ORDER BY n
            RETURNING id, \(key) AS owner
            """,
            [documents.map(\.family), documents.map(\.id), documents.map { $0.columns[0] }, documents.map { $0.columns[1] },
                documents.map { $0.columns[2] }, documents.map { $0.columns[3] }])
        var documentIDs: [String: Int] = [:]
        for row in inserted { documentIDs[try row.string("owner")] = try row.int("id") }
        var lines = ByteBuffer()
        for document in documents {
            guard let id = documentIDs[document.id] else { throw StoreError.unreadable("a search document just written") }
            for token in document.tokens {
                lines.writeString("\(id)\t\(PostgresTransaction.copyText(document.family))\t\(PostgresTransaction.copyText(token.text))\t\(token.column + 1)\t{")
                lines.writeString(token.positions.map(String.init).joined(separator: ","))
                lines.writeString("}\t\(min(token.positions.count, Int(Int16.max)))\n")
            }
        }
        guard lines.readableBytes > 0 else { return }
        try await db.copy(into: "searchTokens", columns: ["documentId", "familyId", "token", "field", "positions", "occurrences"], lines)
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
        INSERT INTO searchTokens (documentId, familyId, token, field, positions, occurrences)
        SELECT ?, ?, token, field, string_to_array(positions, ',')::integer[], least(cardinality(string_to_array(positions, ',')), 32767)
        FROM unnest(?::text[], ?::smallint[], ?::text[]) AS t(token, field, positions)
        """

    static func tokenArguments(document: Int, family: String, tokens: [SearchTokens.Token]) -> [SQLArgument] {
        [document, family, tokens.map(\.text), tokens.map { Int16($0.column + 1) }, tokens.map { $0.positions.map(String.init).joined(separator: ",") }]
    }
}

