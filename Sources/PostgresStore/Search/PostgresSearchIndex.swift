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
    static let lookupIndex = "CREATE INDEX searchTokens_lookup ON searchTokens(family, token, documentId) INCLUDE (field, occurrences)"

    /// Every document made again from the entries and memos, in the order they were written (document IDs are the
    /// recency search windows go by, as SQLite's rowids are): the documents in two statements, then their tokens a
    /// thousand documents at a time, each batch tokenized on another thread while the database reads the next and
    /// copies in the last.
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
        try await db.execute(
            """
            INSERT INTO searchDocuments (familyId, entryId, title, body, tags, place)
            SELECT familyId, id, title, body,
                coalesce((SELECT string_agg(tags.name, ' ' ORDER BY entryTags.position) FROM entryTags
                    JOIN tags ON tags.id = entryTags.tagId WHERE entryTags.entryId = entries.id), ''),
                trim(coalesce(placeName, '') || ' ' || coalesce(placeRegion, ''))
            FROM entries ORDER BY createdAt, id
            """)
        try await db.execute(
            "INSERT INTO searchDocuments (familyId, memoId, title, body, tags, place) SELECT familyId, id, title, body, '', '' FROM memos ORDER BY createdAt, id")
        var after = 0  // document IDs are positive
        var tokenizing: Task<ByteBuffer, any Error>?
        while true {
            let read = try await db.rows(
                """
                SELECT d.id, f.number, d.title, d.body, d.tags, d.place FROM searchDocuments d
                JOIN searchFamilies f ON f.familyId = d.familyId WHERE d.id > ? ORDER BY d.id LIMIT 1000
                """, [after]
            ).map { row in
                Document(
                    id: try row.int("id"), family: try row.int("number"),
                    columns: [try row.string("title"), try row.string("body"), try row.string("tags"), try row.string("place")])
            }
            let previous = try await tokenizing?.value
            tokenizing = read.isEmpty ? nil : Task.detached { try copyLines(of: read) }
            if let previous, previous.readableBytes > 0 {
                try await db.copy(into: "searchTokens", columns: ["documentId", "family", "token", "field", "positions", "occurrences"], previous)
            }
            guard let last = read.last else { break }
            after = last.id
        }
    }

    /// A document being indexed: its ID, its family's number (`searchFamilies.number`) and its four columns.
    struct Document: Sendable {
        let id: Int
        let family: Int
        let columns: [String]
    }

    /// Documents' tokens as the lines of one `COPY` into `searchTokens`.
    static func copyLines(of documents: [Document]) throws -> ByteBuffer {
        var lines = ByteBuffer()
        lines.reserveCapacity(documents.count * 4_096)
        for document in documents {
            // The line's start, the same for each of the document's tokens.
            var start = ByteBuffer()
            start.writeCopyInteger(document.id)
            start.writeInteger(UInt8(ascii: "\t"))
            start.writeCopyInteger(document.family)
            start.writeInteger(UInt8(ascii: "\t"))
            // In the primary key's order (the rows come by document): its index is then made from sorted rows.
            let tokens = try SearchTokens.document(document.columns).sorted { a, b in
                a.column != b.column ? a.column < b.column : a.text.utf8.lexicographicallyPrecedes(b.text.utf8)
            }
            for token in tokens {
                lines.writeImmutableBuffer(start)
                lines.writeCopyText(token.text)
                lines.writeInteger(UInt8(ascii: "\t"))
                lines.writeCopyInteger(token.column + 1)
                lines.writeStaticString("\t{")
                for (index, position) in token.positions.enumerated() {
                    if index > 0 { lines.writeInteger(UInt8(ascii: ",")) }
                    lines.writeCopyInteger(position)
                }
                lines.writeStaticString("}\t")
                lines.writeCopyInteger(min(token.positions.count, Int(Int16.max)))
                lines.writeInteger(UInt8(ascii: "\n"))
            }
        }
        return lines
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
        INSERT INTO searchTokens (documentId, family, token, field, positions, occurrences)
        SELECT ?, (SELECT number FROM searchFamilies WHERE familyId = ?), token, field, string_to_array(positions, ',')::integer[], least(cardinality(string_to_array(positions, ',')), 32767)
        FROM unnest(?::text[], ?::smallint[], ?::text[]) AS t(token, field, positions)
        """

    static func tokenArguments(document: Int, family: String, tokens: [SearchTokens.Token]) -> [SQLArgument] {
        [document, family, tokens.map(\.text), tokens.map { Int16($0.column + 1) }, tokens.map { $0.positions.map(String.init).joined(separator: ",") }]
    }
}

