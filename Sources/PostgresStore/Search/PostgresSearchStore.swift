import Diary
import Foundation
import Persistence

/// `SearchStore` over PostgreSQL's token table. It finds what SQLite's FTS5 index finds — the same tokens
/// (`SearchTokens`), every term a phrase of tokens at consecutive positions in one column, words as prefixes — and
/// ranks it by the same BM25 without length normalisation (`saessak_rank` in CModules/CSearchTokenizer): per column
/// weights title 4, body 1, tags 3, place 2; an IDF per term over the family's documents, counted (or, for a term in
/// more than 2,048 documents, estimated from the first 2,048, as SQLite does). Matches are ranked a window at a time,
/// newest documents first, with the same cursors.
public struct PostgresSearchStore: SearchStore {
    let database: PostgresDatabase
    let window: Int
    let merging: Bool?

    /// `merging`: how the lists of several terms meet — nil (always, but in tests) chosen per query by
    /// `Matches.merges`; true or false forces one way, so that tests hold both to the same answers.
    public init(_ database: PostgresDatabase, window: Int = 2_048, merging: Bool? = nil) {
        precondition(window > 0)
        self.database = database
        self.window = window
        self.merging = merging
    }

    static let k1 = 1.2
    /// What a hit shows of its document, beside its id.
    static let documentColumns = ["entryId", "memoId", "title", "body", "tags", "place"]
    static let sample = 2_048

    public func search(family: FamilyID, _ query: SearchQuery, filter: SearchFilter, after cursor: PageCursor?, limit: Int) async throws
        -> Page<SearchHit>
    {
        let start = try SearchPosition(cursor)
        let phrases = try query.terms.map(SearchTokens.phrase)
        // A term the tokenizer keeps nothing of (a lone combining mark) is a phrase FTS5 finds nowhere.
        guard phrases.allSatisfy({ !$0.tokens.isEmpty }) else { return Page(items: [], next: nil) }
        let (window, merging) = (window, merging)
        let (page, next, documents) = try await database.readAsync { db in
            // The family's number in the token table and, for several terms, their counts (no row: nothing indexed yet,
            // nothing found).
            guard let (number, counts) = try await Self.indexed(db, family: family, phrases: phrases) else {
                return ([Int64](), SearchPosition?.none, [PostgresRecord]())
            }
            let idf = counts?.idf ?? [1.0]
            let matches = Matches(family: number, familyID: family, phrases: phrases, filter: filter, size: window, hits: counts?.hits, merging: merging)
            var position = start
            var page: [Int64] = []
            var next: SearchPosition?
            var documents: [PostgresRecord] = []
            while next == nil {
                // Enough of the window's ranking for this page, and one more to tell whether it goes on; the documents
                // of those that go on the page, where the window can bring them.
                let shown = position.offset..<(position.offset + limit - page.count)
                let found = try await matches.window(db, before: position.before, idf: idf, top: shown.upperBound + 1, documents: shown)
                documents += found.documents
                for id in found.ranked.dropFirst(position.offset) {
                    guard page.count < limit else { break }
                    page.append(id)
                    position.offset += 1
                }
                if position.offset < found.ranked.count {
                    next = position
                } else if let following = found.following {
                    position = SearchPosition(before: following, offset: 0)
                    if page.count == limit {
                        if try await matches.any(db, before: following) { next = position }
                        break
                    }
                } else {
                    break
                }
            }
            let brought = Set(try documents.map { Int64(try $0.int("id")) })
            let missing = page.filter { !brought.contains($0) }
            if !missing.isEmpty {
                documents += try await db.rows(
                    "SELECT id, \(Self.documentColumns.joined(separator: ", ")) FROM searchDocuments WHERE familyId = ? AND id = ANY(?)", [family.sql, missing])
            }
            return (page, next, documents)
        }
        var byID: [Int64: SearchHit] = [:]
        for row in documents {
            let entry = try row.optionalString("entryId")
            let memo = try row.optionalString("memoId")
            guard let id = entry ?? memo else { continue }
            let columns = [try row.string("title"), try row.string("body"), try row.string("tags"), try row.string("place")]
            byID[Int64(try row.int("id"))] = SearchHit(
                kind: entry != nil ? .entry : .memo, id: id, title: columns[0], snippet: query.highlight(Self.passage(columns, query)))
        }
        return Page(items: page.compactMap { byID[$0] }, next: next?.cursor)
    }

    public func reindex() async throws -> (entries: Int, memos: Int) {
        let counts = try await database.writeAsync { db in
            try await PostgresSearchIndex.refreshAll(db)
            let entries = try await db.int("SELECT count(*) FROM searchDocuments WHERE entryId IS NOT NULL") ?? 0
            let memos = try await db.int("SELECT count(*) FROM searchDocuments WHERE memoId IS NOT NULL") ?? 0
            return (entries, memos)
        }
        try await database.vacuumAndAnalyze()
        return counts
    }


    /// The family's number in the token table, and — for several terms; one ranks by its instances alone, its IDF
    /// multiplying every score alike — each term's IDF as `saessak_rank` computes it: log((N − n + 0.5) / (n + 0.5)),
    /// at least 10⁻⁶, over the family's own documents (SQLite's index holds one data folder's, usually one family;
    /// here one family's words never weigh in another's ranking, nor can a ranking hint at what another family
    /// wrote). A term in more than 2,048 documents is estimated from the first 2,048, as SQLite does, from the share
    /// of the family's documents they span. Beside the IDFs, the number of documents each term is in (estimated as
    /// for the IDF), which `Matches` plans by. Nil when the family has nothing indexed.
    /// All of it is one statement — the family's row, each term's count and the span of each estimated one — as each
    /// statement is a round trip.
    static func indexed(_ db: PostgresTransaction, family: FamilyID, phrases: [SearchTokens.Phrase]) async throws
        -> (number: Int, counts: (idf: [Double], hits: [Double])?)?
    {
        var arguments: [SQLArgument] = []
        var sql = "SELECT f.number, f.documents"
        if phrases.count > 1 {
            let counts = phrases.enumerated().map { index, phrase -> String in
                let condition = Self.phrase(phrase, alias: "s0", arguments: &arguments)
                return """
                    SELECT \(index) AS term, count(*) AS hits, min(d) AS first, max(d) AS last FROM (
                        SELECT DISTINCT s0.documentId AS d FROM searchTokens s0 WHERE s0.family = f.number AND \(condition)
                        ORDER BY d LIMIT \(sample)) AS s
                    """
            }
            sql += """
                , c.term, c.hits, c.spanned FROM searchFamilies f CROSS JOIN LATERAL (
                    SELECT u.term, u.hits, CASE WHEN u.hits >= \(sample) THEN (
                        SELECT count(*) FROM searchDocuments WHERE familyId = f.familyId AND id BETWEEN u.first AND u.last) END AS spanned
                    FROM (\(counts.joined(separator: "\nUNION ALL\n"))) AS u) AS c
                """
        } else {
            sql += " FROM searchFamilies f"
        }
        arguments.append(family.sql)
        let rows = try await db.rows(sql + " WHERE f.familyId = ?", arguments)
        guard let first = rows.first else { return nil }
        let number = try first.int("number")
        guard phrases.count > 1 else { return (number, nil) }
        let documents = Double(try first.int("documents"))
        var hits = Array(repeating: 0.0, count: phrases.count)
        for row in rows {
            let term = try row.int("term")
            guard hits.indices.contains(term) else { throw StoreError.unreadable("a search count for term \(term)") }
            let found = try row.int("hits")
            hits[term] = Double(found)
            if found >= sample, let spanned = try row.optionalInt("spanned") {
                let covered = Double(spanned) / max(documents, 1)
                if covered > 0, covered < 1 { hits[term] /= covered }
                hits[term] = min(hits[term], documents)
            }
        }
        return (number, (hits.map { max(log((documents - $0 + 0.5) / ($0 + 0.5)), 1e-6) }, hits))
    }

    /// The condition that a token row (`alias`) starts the phrase: its token is the phrase's first (a prefix for a
    /// one-token word), and the phrase's other tokens follow at the next positions of the same document and column.
    static func phrase(_ phrase: SearchTokens.Phrase, alias: String, arguments: inout [SQLArgument]) -> String {
        func token(_ column: String, _ index: Int) -> String {
            let text = phrase.tokens[index]
            if phrase.prefix, index == phrase.tokens.count - 1 {
                arguments += [text, text + "\u{10FFFF}"]
                return "\(column) >= ? AND \(column) < ?"
            }
            arguments.append(text)
            return "\(column) = ?"
        }
        var sql = token("\(alias).token", 0)
        guard phrase.tokens.count > 1 else { return sql }
        sql += " AND EXISTS (SELECT 1 FROM unnest(\(alias).positions) AS p(pos) WHERE true"
        for index in phrase.tokens.indices.dropFirst() {
            let next = "\(alias)n\(index)"
            sql += """
                 AND EXISTS (SELECT 1 FROM searchTokens \(next) WHERE \(next).documentId = \(alias).documentId
                    AND \(next).field = \(alias).field AND \(token("\(next).token", index)) AND p.pos + \(index) = ANY(\(next).positions))
                """
        }
        return sql + ")"
    }

    /// A phrase's weighted instances in document `document` (SQL naming it): each place the phrase starts counts its
    /// column's weight (title 4, body 1, tags 3, place 2), as `saessak_rank` counts FTS5's instances.
    static func frequency(_ phrase: SearchTokens.Phrase, document: String, arguments: inout [SQLArgument]) -> String {
        var starts = "p.pos = p.pos"
        var inner: [SQLArgument] = []
        let first: String
        let text = phrase.tokens[0]
        if phrase.prefix, phrase.tokens.count == 1 {
            inner += [text, text + "\u{10FFFF}"]
            first = "f0.token >= ? AND f0.token < ?"
        } else {
            inner.append(text)
            first = "f0.token = ?"
        }
        for index in phrase.tokens.indices.dropFirst() {
            let next = "f\(index)"
            let tokenText = phrase.tokens[index]
            let match: String
            if phrase.prefix, index == phrase.tokens.count - 1 {
                inner += [tokenText, tokenText + "\u{10FFFF}"]
                match = "\(next).token >= ? AND \(next).token < ?"
            } else {
                inner.append(tokenText)
                match = "\(next).token = ?"
            }
            starts += """
                 AND EXISTS (SELECT 1 FROM searchTokens \(next) WHERE \(next).documentId = f0.documentId
                    AND \(next).field = f0.field AND \(match) AND p.pos + \(index) = ANY(\(next).positions))
                """
        }
        arguments += inner
        return """
            (SELECT coalesce(sum(CASE f0.field WHEN 1 THEN 4.0 WHEN 2 THEN 1.0 WHEN 3 THEN 3.0 ELSE 2.0 END), 0)::double precision
             FROM searchTokens f0 CROSS JOIN LATERAL unnest(f0.positions) AS p(pos)
             WHERE f0.documentId = \(document) AND \(first) AND \(starts))
            """
    }

    /// The passage a hit shows: the column FTS5's snippet() would choose — each term found in it counts 1,000, each
    /// further instance 1; the first column wins a tie — cut to about 24 words or syllables around the first match, with
    /// "…" where text was left out.
    static func passage(_ columns: [String], _ query: SearchQuery) -> String {
        var best: (score: Int, found: SearchQuery.Found)?
        for text in columns {
            let found = query.find(in: text)
            let score = found.runs.reduce(0) { $0 + ($1 > 0 ? 1_000 + $1 - 1 : 0) }
            if score > best?.score ?? -1 { best = (score, found) }
        }
        guard let best else { return "" }
        let characters = best.found.characters
        let unitStarts = best.found.unitStarts
        let length = 24
        guard unitStarts.count > length else { return String(characters) }
        let marked = best.found.first ?? 0
        let firstUnit = unitStarts.lastIndex { $0 <= marked } ?? 0
        let startUnit = max(0, min(firstUnit - 4, unitStarts.count - length))
        let start = unitStarts[startUnit]
        let endUnit = startUnit + length
        var end = endUnit < unitStarts.count ? unitStarts[endUnit] : characters.count
        while end > start, characters[end - 1] == " " { end -= 1 }
        return (startUnit > 0 ? "…" : "") + String(characters[start..<end]) + (endUnit < unitStarts.count ? "…" : "")
    }
}
