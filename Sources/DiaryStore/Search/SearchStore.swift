import Diary
import GRDB

/// Korean full-text search over a family's entries (title, body, tags, place) and memos, best match first.
public struct SearchStore: Sendable {
    let database: DiaryDatabase

    public init(_ database: DiaryDatabase) { self.database = database }

    /// Weights of the columns in bm25: a word in a title or a tag says more than one in a long body.
    static let columnWeights = "4.0, 1.0, 3.0, 2.0"  // title, body, tags, place

    /// One page of hits. Ranking is by relevance, so pages are numbered by position (the cursor carries the offset).
    public func search(
        family: FamilyID, _ query: SearchQuery, filter: SearchFilter = try! SearchFilter(), after cursor: PageCursor?,
        limit: Int
    ) async throws -> Page<SearchHit> {
        let offset = try Self.offset(cursor)
        return try await database.writer.read { db in
            var conditions = ["searchIndex MATCH ?", "searchDocuments.familyId = ?"]
            var arguments: StatementArguments = [Self.expression(query), family.sql]
            if filter.narrowsToEntries {
                conditions.append("searchDocuments.entryId IS NOT NULL")
            }
            if let child = filter.childID {
                conditions.append(
                    "EXISTS (SELECT 1 FROM entryChildren WHERE entryId = searchDocuments.entryId AND childId = ?)")
                arguments += [child.sql]
            }
            if let from = filter.from {
                conditions.append("(SELECT localDateTime FROM entries WHERE id = searchDocuments.entryId) >= ?")
                arguments += [from.iso]
            }
            if let to = filter.to {
                conditions.append("(SELECT localDateTime FROM entries WHERE id = searchDocuments.entryId) <= ?")
                arguments += [to.iso + "T23:59"]
            }
            // Rank first, then make snippets for the page only: a snippet costs a re-tokenisation of its text. FTS5
            // chooses the passage; the query marks its matches (FTS5 would mark whole positions, pairs and all).
            let ranked = try Int64.fetchAll(
                db,
                sql: """
                    SELECT searchIndex.rowid FROM searchIndex JOIN searchDocuments ON searchDocuments.id = searchIndex.rowid
                    WHERE \(conditions.joined(separator: " AND "))
                    ORDER BY bm25(searchIndex, \(Self.columnWeights)), searchIndex.rowid DESC
                    LIMIT \(limit + 1) OFFSET \(offset)
                    """,
                arguments: arguments)
            let kept = Array(ranked.prefix(limit))
            let hits = try Self.hits(db, rowIDs: kept, query: query)
            let next = ranked.count > limit ? PageCursor(sortKey: String(offset + limit), id: Self.cursorID) : nil
            return Page(items: hits, next: next)
        }
    }

    /// Rebuilds every document and the index (`saessak admin reindex`); returns how many entries and memos it holds.
    public func reindex() async throws -> (entries: Int, memos: Int) {
        try await database.writer.write { db in
            try SearchIndex.refreshAll(db)
            let entries = try Int.fetchOne(db, sql: "SELECT count(*) FROM searchDocuments WHERE entryId IS NOT NULL") ?? 0
            let memos = try Int.fetchOne(db, sql: "SELECT count(*) FROM searchDocuments WHERE memoId IS NOT NULL") ?? 0
            return (entries, memos)
        }
    }

    /// The FTS5 expression: every term a quoted phrase (the tokenizer turns syllables into pairs), words as prefixes.
    static func expression(_ query: SearchQuery) -> String {
        query.terms.map { term in
            switch term {
            case .syllables(let text), .symbol(let text): quoted(text)
            case .word(let text): quoted(text) + " *"
            }
        }.joined(separator: " AND ")
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private static func hits(_ db: Database, rowIDs: [Int64], query: SearchQuery) throws -> [SearchHit] {
        guard !rowIDs.isEmpty else { return [] }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT searchIndex.rowid AS rowid, entryId, memoId, searchDocuments.title AS title,
                    snippet(searchIndex, -1, '', '', '…', 24) AS passage
                FROM searchIndex JOIN searchDocuments ON searchDocuments.id = searchIndex.rowid
                WHERE searchIndex MATCH ? AND searchIndex.rowid IN (\(databaseQuestionMarks(count: rowIDs.count)))
                """,
            arguments: [expression(query)] + StatementArguments(rowIDs))
        var byRowID: [Int64: SearchHit] = [:]
        for row in rows {
            let entry: String? = row["entryId"]
            let memo: String? = row["memoId"]
            guard let id = entry ?? memo else { continue }
            byRowID[row["rowid"]] = SearchHit(
                kind: entry != nil ? .entry : .memo, id: id, title: row["title"], snippet: query.highlight(row["passage"]))
        }
        return rowIDs.compactMap { byRowID[$0] }
    }

    private static let cursorID = "search"

    private static func offset(_ cursor: PageCursor?) throws(ValidationError) -> Int {
        guard let cursor else { return 0 }
        guard cursor.id == cursorID, let offset = Int(cursor.sortKey), offset >= 0 else {
            throw ValidationError(field: "cursor", "is not a search cursor this server gave out")
        }
        return offset
    }
}
