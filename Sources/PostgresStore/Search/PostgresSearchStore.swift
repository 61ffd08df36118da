import Diary
import DiaryStore
import Foundation

/// `SearchStore` over PostgreSQL's token table. It finds what SQLite's FTS5 index finds — the same tokens
/// (`SearchTokens`), every term a phrase of tokens at consecutive positions in one column, words as prefixes — and
/// ranks it by the same BM25 without length normalisation (`saessak_rank` in CModules/CSearchTokenizer): per column
/// weights title 4, body 1, tags 3, place 2; an IDF per term over every family's documents, counted (or, for a term in
/// more than 2,048 documents, estimated from the first 2,048, as SQLite does). Matches are ranked a window at a time,
/// newest documents first, with the same cursors.
public struct PostgresSearchStore: SearchStore {
    let database: PostgresDatabase
    let window: Int

    public init(_ database: PostgresDatabase, window: Int = 2_048) {
        precondition(window > 0)
        self.database = database
        self.window = window
    }

    static let k1 = 1.2
    static let sample = 2_048

    public func search(family: FamilyID, _ query: SearchQuery, filter: SearchFilter, after cursor: PageCursor?, limit: Int) async throws
        -> Page<SearchHit>
    {
        let start = try SearchPosition(cursor)
        let phrases = try query.terms.map(SearchTokens.phrase)
        let window = window
        let (page, next, documents) = try await database.read { db in
            let matches = Matches(family: family, phrases: phrases, filter: filter, size: window)
            let idf = try await Self.inverseFrequencies(db, phrases: phrases)
            var position = start
            var page: [Int64] = []
            var next: SearchPosition?
            while next == nil {
                let found = try await matches.window(db, before: position.before, idf: idf)
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
            let documents = page.isEmpty ? [] : try await db.rows(
                "SELECT id, entryId, memoId, title, body, tags, place FROM searchDocuments WHERE familyId = ? AND id = ANY(?)",
                [family.sql, page])
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
        try await database.write { db in
            try await PostgresSearchIndex.refreshAll(db)
            let entries = try await db.int("SELECT count(*) FROM searchDocuments WHERE entryId IS NOT NULL") ?? 0
            let memos = try await db.int("SELECT count(*) FROM searchDocuments WHERE memoId IS NOT NULL") ?? 0
            return (entries, memos)
        }
    }


    /// Each term's IDF, as `saessak_rank` computes it: log((N − n + 0.5) / (n + 0.5)), at least 10⁻⁶.
    static func inverseFrequencies(_ db: PostgresTransaction, phrases: [SearchTokens.Phrase]) async throws -> [Double] {
        let rows = Double(try await db.int("SELECT count(*) FROM searchDocuments") ?? 0)
        var idf: [Double] = []
        for phrase in phrases {
            var arguments: [SQLArgument] = []
            let matching = Self.matching(phrase, family: nil, arguments: &arguments)
            guard let row = try await db.row(
                "SELECT count(*) AS hits, min(d) AS first, max(d) AS last FROM (SELECT DISTINCT d FROM (\(matching)) AS m ORDER BY d LIMIT \(sample)) AS s",
                arguments)
            else { throw StoreError.unreadable("a search count") }
            var hits = Double(try row.int("hits"))
            if try row.int("hits") >= sample, let first = try row.optionalInt("first"), let last = try row.optionalInt("last") {
                let covered = Double(last - first + 1) / max(rows, 1)
                if covered > 0, covered < 1 { hits /= covered }
                hits = min(hits, rows)
            }
            idf.append(max(log((rows - hits + 0.5) / (hits + 0.5)), 1e-6))
        }
        return idf
    }

    /// The SQL that gives `(d, f)` for every document matching a phrase: its ID and the phrase's instances, each weighted
    /// by its column's weight. `family` nil counts every family's (for the IDF).
    static func matching(_ phrase: SearchTokens.Phrase, family: FamilyID?, arguments: inout [SQLArgument]) -> String {
        func condition(_ alias: String, _ index: Int) -> String {
            let token = phrase.tokens[index]
            if phrase.prefix, index == phrase.tokens.count - 1 {
                arguments += [token, token + "\u{10FFFF}"]
                return "\(alias).token >= ? AND \(alias).token < ?"
            }
            arguments.append(token)
            return "\(alias).token = ?"
        }
        var sql = """
            SELECT s0.documentId AS d, sum(CASE s0.field WHEN 1 THEN 4.0 WHEN 2 THEN 1.0 WHEN 3 THEN 3.0 ELSE 2.0 END)::double precision AS f
            FROM searchTokens s0 CROSS JOIN LATERAL unnest(s0.positions) AS p(pos) WHERE
            """
        if let family {
            sql += " s0.familyId = ? AND"
            arguments.append(family.sql)
        }
        sql += " " + condition("s0", 0)
        for index in phrase.tokens.indices.dropFirst() {
            let alias = "s\(index)"
            sql += """
                 AND EXISTS (SELECT 1 FROM searchTokens \(alias) WHERE \(alias).documentId = s0.documentId
                    AND \(alias).field = s0.field AND \(condition(alias, index)) AND p.pos + \(index) = ANY(\(alias).positions))
                """
        }
        return sql + " GROUP BY s0.documentId"
    }

    /// A family's matches of every term, narrowed by the filter.
    struct Matches {
        let family: FamilyID
        let phrases: [SearchTokens.Phrase]
        let filter: SearchFilter
        let size: Int

        private func sql(before: Int64?, select: String, tail: String) -> (String, [SQLArgument]) {
            var arguments: [SQLArgument] = []
            var ctes: [String] = []
            for (index, phrase) in phrases.enumerated() {
                ctes.append("t\(index) AS (\(PostgresSearchStore.matching(phrase, family: family, arguments: &arguments)))")
            }
            var from = "t0"
            for index in phrases.indices.dropFirst() { from += " JOIN t\(index) ON t\(index).d = t0.d" }
            var conditions = ["true"]
            if filter.narrowsToEntries {
                from += " JOIN searchDocuments doc ON doc.id = t0.d"
                conditions.append("doc.entryId IS NOT NULL")
            }
            if let child = filter.childID {
                conditions.append("EXISTS (SELECT 1 FROM entryChildren WHERE entryId = doc.entryId AND childId = ?)")
                arguments.append(child.sql)
            }
            if let from = filter.from {
                conditions.append("(SELECT localDateTime FROM entries WHERE id = doc.entryId) >= ?")
                arguments.append(from.iso)
            }
            if let to = filter.to {
                conditions.append("(SELECT localDateTime FROM entries WHERE id = doc.entryId) <= ?")
                arguments.append(to.iso + "T23:59")
            }
            if let before {
                conditions.append("t0.d < ?")
                arguments.append(before)
            }
            let sql = "WITH \(ctes.joined(separator: ", ")) SELECT \(select) FROM \(from) WHERE \(conditions.joined(separator: " AND ")) \(tail)"
            return (sql, arguments)
        }

        /// The newest `size` matches below `before`, ranked; `following` is where the next window starts, if any.
        func window(_ db: PostgresTransaction, before: Int64?, idf: [Double]) async throws -> (ranked: [Int64], following: Int64?) {
            let frequencies = phrases.indices.map { "t\($0).f AS f\($0)" }.joined(separator: ", ")
            let (sql, arguments) = sql(before: before, select: "t0.d AS id, \(frequencies)", tail: "ORDER BY t0.d DESC LIMIT \(size)")
            let rows = try await db.rows(sql, arguments)
            var scored: [(id: Int64, score: Double)] = []
            for row in rows {
                var score = 0.0
                for index in phrases.indices {
                    let frequency = try row.double("f\(index)")
                    guard frequency > 0 else { continue }
                    score += idf[index] * frequency * (PostgresSearchStore.k1 + 1) / (frequency + PostgresSearchStore.k1)
                }
                scored.append((Int64(try row.int("id")), score))
            }
            let ranked = scored.sorted { $0.score != $1.score ? $0.score > $1.score : $0.id > $1.id }.map(\.id)
            return (ranked, rows.count == size ? scored.last?.id : nil)
        }

        func any(_ db: PostgresTransaction, before: Int64) async throws -> Bool {
            let (sql, arguments) = sql(before: before, select: "1", tail: "LIMIT 1")
            return try await db.exists(sql, arguments)
        }
    }

    /// The passage a hit shows: the column FTS5's snippet() would choose — each term found in it counts 1,000, each
    /// further instance 1; the first column wins a tie — cut to about 24 words or syllables around the first match, with
    /// "…" where text was left out.
    static func passage(_ columns: [String], _ query: SearchQuery) -> String {
        let terms = query.terms.compactMap { term -> SearchQuery? in
            switch term {
            case .syllables(let text), .word(let text), .symbol(let text): try? SearchQuery(text)
            }
        }
        var best = (column: 0, score: -1)
        for (index, text) in columns.enumerated() {
            var score = 0
            for term in terms {
                let instances = term.highlight(text).parts.filter(\.isMatch).count
                if instances > 0 { score += 1_000 + instances - 1 }
            }
            if score > best.score { best = (index, score) }
        }
        let characters = Array(columns[best.column])
        // Units as the tokenizer counts positions: each syllable one, each run of other letters or digits one.
        var unitStarts: [Int] = []
        var inWord = false
        for (index, character) in characters.enumerated() {
            let scalar = character.unicodeScalars.first
            let isSyllable = scalar.map { SearchQuery.isSyllable($0) } ?? false
            let isLetter = character.isLetter || character.isNumber
            if isSyllable {
                unitStarts.append(index)
                inWord = false
            } else if isLetter {
                if !inWord { unitStarts.append(index) }
                inWord = true
            } else {
                inWord = false
            }
        }
        let length = 24
        guard unitStarts.count > length else { return String(characters) }
        var marked = 0
        var offset = 0
        for part in query.highlight(String(characters)).parts {
            if part.isMatch { marked = offset; break }
            offset += part.text.count
        }
        let firstUnit = unitStarts.lastIndex { $0 <= marked } ?? 0
        let startUnit = max(0, min(firstUnit - 4, unitStarts.count - length))
        let start = unitStarts[startUnit]
        let endUnit = startUnit + length
        var end = endUnit < unitStarts.count ? unitStarts[endUnit] : characters.count
        while end > start, characters[end - 1] == " " { end -= 1 }
        return (startUnit > 0 ? "…" : "") + String(characters[start..<end]) + (endUnit < unitStarts.count ? "…" : "")
    }
}
