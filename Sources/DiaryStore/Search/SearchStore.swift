import Diary
import GRDB
import Persistence

/// `SearchStore` over the SQLite database (`DiaryDatabase`).
public struct SQLiteSearchStore: SearchStore {
    let database: DiaryDatabase
    /// How many matches are ranked together: the newest `window` matches first, then the next newest, and so on.
    /// A query matching fewer is ranked exactly; one matching a large part of a long diary (아기 in 40 % of
    /// 100,000 entries) is ranked window by window, newest window first, so its cost stays bounded.
    let window: Int

    public init(_ database: DiaryDatabase, window: Int = 2_048) {
        precondition(window > 0)
        self.database = database
        self.window = window
    }

    /// `saessak_rank` (BM25 without length normalisation, CModules/CSearchTokenizer) with a weight per column: a word
    /// in a title or a tag says more than one in a long body; the family column only filters.
    static let rank = "saessak_rank(searchIndex, 0.0, 4.0, 1.0, 3.0, 2.0)"  // family, title, body, tags, place

    public func search(
        family: FamilyID, _ query: SearchQuery, filter: SearchFilter = try! SearchFilter(), after cursor: PageCursor?,
        limit: Int
    ) async throws -> Page<SearchHit> {
        let start = try SearchPosition(cursor)
        return try await database.reading { db in
            var position = start
            let matches = Self.matches(family: family, query, filter, window: window)
            var page: [Int64] = []
            var next: SearchPosition?
            while next == nil {
                let window = try matches.window(db, before: position.before)
                for rowID in window.ranked.dropFirst(position.offset) {
                    guard page.count < limit else { break }
                    page.append(rowID)
                    position.offset += 1
                }
                if position.offset < window.ranked.count {
                    next = position
                } else if let following = window.following {
                    position = SearchPosition(before: following, offset: 0)
                    if page.count == limit {
                        // Is there anything in the next window at all?
                        if try matches.any(db, before: following) { next = position }
                        break
                    }
                } else {
                    break
                }
            }
            return Page(items: try Self.hits(db, family: family, rowIDs: page, query: query), next: next?.cursor)
        }
    }


    /// The SQL that finds a family's matches, narrowed by the filter.
    struct Matches {
        let join: String
        let conditions: [String]
        let arguments: StatementArguments
        let size: Int

        /// The newest `size` matches below `before`, ranked; `following` is where the next window starts, if any.
        func window(_ db: Database, before: Int64?) throws
            -> (ranked: [Int64], following: Int64?)
        {
            var conditions = conditions
            var arguments = arguments
            if let before {
                conditions.append("searchIndex.rowid < ?")
                arguments += [before]
            }
            // Newest first is the index's own order, so the scan stops after `size` rows and ranks only those.
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT searchIndex.rowid AS id, \(SQLiteSearchStore.rank) AS score FROM searchIndex \(join)
                    WHERE \(conditions.joined(separator: " AND "))
                    ORDER BY searchIndex.rowid DESC LIMIT \(size)
                    """,
                arguments: arguments
            ).map { (id: $0["id"] as Int64, score: $0["score"] as Double) }
            let ranked = rows.sorted { $0.score != $1.score ? $0.score < $1.score : $0.id > $1.id }.map(\.id)
            return (ranked, rows.count == size ? rows.last?.id : nil)
        }

        /// Whether any match lies below `before` (without ranking it).
        func any(_ db: Database, before: Int64) throws -> Bool {
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM searchIndex \(join)
                        WHERE \((conditions + ["searchIndex.rowid < ?"]).joined(separator: " AND ")))
                    """,
                arguments: arguments + [before]) ?? false
        }
    }

    static func matches(family: FamilyID, _ query: SearchQuery, _ filter: SearchFilter, window: Int) -> Matches {
        // The index narrows to the family itself (a posting list, not a lookup per matching row).
        let familyToken = quoted(family.sql.replacingOccurrences(of: "-", with: ""))
        var conditions = ["searchIndex MATCH ?"]
        var arguments: StatementArguments = ["family : \(familyToken) AND \(expression(query))"]
        var join = ""
        if filter.narrowsToEntries {
            // CROSS JOIN keeps the index as the outer loop: the matches are few next to the documents.
            join = "CROSS JOIN searchDocuments ON searchDocuments.id = searchIndex.rowid"
            conditions.append("searchDocuments.entryId IS NOT NULL")
        }
        if let child = filter.childID {
            conditions.append("EXISTS (SELECT 1 FROM entryChildren WHERE entryId = searchDocuments.entryId AND childId = ?)")
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
        return Matches(join: join, conditions: conditions, arguments: arguments, size: window)
    }

    public func reindex() async throws -> (entries: Int, memos: Int) {
        try await database.writing { db in
            try SearchIndex.refreshAll(db)
            let entries = try Int.fetchOne(db, sql: "SELECT count(*) FROM searchDocuments WHERE entryId IS NOT NULL") ?? 0
            let memos = try Int.fetchOne(db, sql: "SELECT count(*) FROM searchDocuments WHERE memoId IS NOT NULL") ?? 0
            return (entries, memos)
        }
    }

    /// The FTS5 expression over the text columns: every term a quoted phrase (the tokenizer turns syllables into
    /// pairs), words as prefixes.
    static func expression(_ query: SearchQuery) -> String {
        let terms = query.terms.map { term in
            switch term {
            case .syllables(let text), .symbol(let text): quoted(text)
            case .word(let text): quoted(text) + " *"
            }
        }
        return "{title body tags place} : (\(terms.joined(separator: " AND ")))"
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The page's hits with their passages (FTS5 chooses the passage; the query marks its matches — FTS5 would mark
    /// whole positions, pairs and all). Snippets cost a re-tokenisation of their text, so only the page gets them.
    private static func hits(_ db: Database, family: FamilyID, rowIDs: [Int64], query: SearchQuery) throws -> [SearchHit] {
        guard !rowIDs.isEmpty else { return [] }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT searchIndex.rowid AS rowid, entryId, memoId, searchDocuments.title AS title,
                    snippet(searchIndex, -1, '', '', '…', 24) AS passage
                FROM searchIndex CROSS JOIN searchDocuments ON searchDocuments.id = searchIndex.rowid
                WHERE searchIndex MATCH ? AND searchDocuments.familyId = ?
                    AND searchIndex.rowid IN (\(databaseQuestionMarks(count: rowIDs.count)))
                """,
            arguments: [expression(query), family.sql] + StatementArguments(rowIDs))
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

}
