import Diary
import Foundation
import Persistence

extension PostgresSearchStore {
    /// A family's matches of every term, narrowed by the filter: the newest first, straight off the token index (one
    /// term's postings, newest first, checked for or merged with the others'), so a window costs its own size and
    /// not the number of matches; then each term's instances in just those documents, and their ranking.
    struct Matches {
        /// The family's number in the token table (`searchFamilies.number`).
        let family: Int
        /// The family itself: the documents a window brings along are checked to be its own, as any read is.
        let familyID: FamilyID
        let phrases: [SearchTokens.Phrase]
        let filter: SearchFilter
        let size: Int
        /// The number of documents each term is in (`PostgresSearchStore.indexed`), nil for one term.
        let hits: [Double]?
        /// A way forced by a test (`PostgresSearchStore.merging`).
        let merging: Bool?

        /// The filter's narrowing of the document `document` names (none, or one condition).
        private func documentConditions(arguments: inout [SQLArgument], document id: String) -> [String] {
            var document: [String] = []
            if filter.narrowsToEntries { document.append("doc.entryId IS NOT NULL") }
            if let child = filter.childID {
                document.append("EXISTS (SELECT 1 FROM entryChildren WHERE entryId = doc.entryId AND childId = ?)")
                arguments.append(child.sql)
            }
            if let from = filter.from {
                document.append("(SELECT localDateTime FROM entries WHERE id = doc.entryId) >= ?")
                arguments.append(from.iso)
            }
            if let to = filter.to {
                document.append("(SELECT localDateTime FROM entries WHERE id = doc.entryId) <= ?")
                arguments.append(to.iso + "T23:59")
            }
            guard !document.isEmpty else { return [] }
            return ["EXISTS (SELECT 1 FROM searchDocuments doc WHERE doc.id = \(id) AND \(document.joined(separator: " AND ")))"]
        }

        private func candidates(before: Int64?, limit: Int, arguments: inout [SQLArgument]) -> String {
            arguments.append(family)
            var conditions = ["s0.family = ?", PostgresSearchStore.phrase(phrases[0], alias: "s0", arguments: &arguments)]
            for (index, phrase) in phrases.enumerated().dropFirst() {
                let alias = "t\(index)"
                conditions.append(
                    "EXISTS (SELECT 1 FROM searchTokens \(alias) WHERE \(alias).documentId = s0.documentId AND "
                        + PostgresSearchStore.phrase(phrase, alias: alias, arguments: &arguments) + ")")
            }
            conditions += documentConditions(arguments: &arguments, document: "s0.documentId")
            if let before {
                conditions.append("s0.documentId < ?")
                arguments.append(before)
            }
            return """
                SELECT DISTINCT s0.documentId AS d FROM searchTokens s0 WHERE \(conditions.joined(separator: " AND "))
                ORDER BY d DESC LIMIT \(limit)
                """
        }

        /// Whether every term is one whole token (a pair of syllables, one syllable, a symbol): found and counted
        /// from the lookup index alone, which covers each row's column and count.
        var isCounted: Bool { phrases.allSatisfy { $0.tokens.count == 1 && !$0.prefix } }

        /// The terms, the one in the fewest documents first: the lookups go from its documents to the others'.
        var rarestFirst: [Int] { Array(phrases.indices).sorted { (hits?[$0] ?? 0, $0) < (hits?[$1] ?? 0, $1) } }

        /// Whether to merge the terms' lists — each read newest first from the index, joined as they go — rather than
        /// look each document of the rarest term up in the others'. Back to the window's oldest match, the merge reads
        /// every term's entries there (in proportion to its share of documents), the lookups one index probe per
        /// further term for each of the rarest's, and a probe costs about 15 entries read in order (EXPLAIN ANALYZE
        /// on the 100,000-entry diary: '공원 산책', 2,048 matches of 112,384 and 152,251 token rows, 4.1 ms merged,
        /// 7.2 ms looked up). So merge unless the rarest term is much rarer than the rest together.
        var merges: Bool {
            guard let hits, phrases.count > 1, let rarest = hits.min() else { return false }
            if let merging { return merging }
            return hits.reduce(0, +) < 15 * Double(phrases.count - 1) * rarest
        }

        /// The newest `size` matches below `before`, each term's weighted instances beside it: the rarest term's
        /// documents newest first with their counts (one backward index-only scan, grouped), and each further term's
        /// either merged in from its own such scan (`merges`) or looked up in the same index for each of them.
        private func counted(before: Int64?, arguments: inout [SQLArgument]) -> String {
            let weighted = "sum((CASE field WHEN 1 THEN 4 WHEN 2 THEN 1 WHEN 3 THEN 3 ELSE 2 END) * occurrences)::double precision"
            func list(_ index: Int) -> String {
                arguments += [family, phrases[index].tokens[0]]
                var list = "SELECT documentId AS d, \(weighted) AS f FROM searchTokens WHERE family = ? AND token = ?"
                if let before {
                    list += " AND documentId < ?"
                    arguments.append(before)
                }
                return "(\(list) GROUP BY documentId ORDER BY documentId DESC) AS t\(index)"
            }
            let order = rarestFirst
            let first = order[0]
            var sql = "SELECT t\(first).d AS id, " + phrases.indices.map { "t\($0).f AS f\($0)" }.joined(separator: ", ")
            sql += " FROM " + list(first)
            var conditions: [String] = []
            for index in order.dropFirst() {
                if merges {
                    sql += " JOIN \(list(index)) ON t\(index).d = t\(first).d"
                } else {
                    sql += """
                         CROSS JOIN LATERAL (SELECT \(weighted) AS f FROM searchTokens
                            WHERE family = ? AND token = ? AND documentId = t\(first).d) AS t\(index)
                        """
                    arguments += [family, phrases[index].tokens[0]]
                    conditions.append("t\(index).f IS NOT NULL")
                }
            }
            conditions += documentConditions(arguments: &arguments, document: "t\(first).d")
            if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
            return sql + " ORDER BY t\(first).d DESC LIMIT \(size)"
        }

        /// The newest `size` matches below `before`, ranked — the first `top` of them; `following` is where the next
        /// window starts, if any. `documents` (positions in the ranking) are the hits whose documents the page shows:
        /// a window ranked in SQL brings them along (a round trip fewer), one ranked here brings none.
        func window(_ db: PostgresTransaction, before: Int64?, idf: [Double], top: Int, documents shown: Range<Int>) async throws
            -> (ranked: [Int64], following: Int64?, documents: [PostgresRecord])
        {
            if isCounted { return try await rankedInSQL(db, before: before, idf: idf, top: top, documents: shown) }
            // The statement's text puts the instances' placeholders before the candidates'.
            var candidateArguments: [SQLArgument] = []
            let candidates = candidates(before: before, limit: size, arguments: &candidateArguments)
            var arguments: [SQLArgument] = []
            let frequencies = phrases.enumerated().map { index, phrase in
                PostgresSearchStore.frequency(phrase, document: "c.d", arguments: &arguments) + " AS f\(index)"
            }
            let rows = try await db.rows(
                "SELECT c.d AS id, \(frequencies.joined(separator: ", ")) FROM (\(candidates)) AS c ORDER BY c.d DESC",
                arguments + candidateArguments)
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
            return (Array(ranked.prefix(top)), rows.count == size ? scored.last?.id : nil, [])
        }

        /// A window of whole-token terms ranked where it is found: the same BM25 as above — each term's
        /// `idf × f × (k1 + 1) / (f + k1)`, in the same order of operations on the same doubles, summed term by term,
        /// so the scores are the very same numbers — and only the `top` ids sent back with the window's size and
        /// oldest match (sending the 2,048 rows of a window back to be ranked was a sixth of the server's time on
        /// `공원 산책`), the documents of those at the positions `shown` beside them.
        private func rankedInSQL(_ db: PostgresTransaction, before: Int64?, idf: [Double], top: Int, documents shown: Range<Int>)
            async throws -> (ranked: [Int64], following: Int64?, documents: [PostgresRecord])
        {
            var windowArguments: [SQLArgument] = []
            let window = counted(before: before, arguments: &windowArguments)
            var arguments: [SQLArgument] = []
            let score = phrases.indices.map { index -> String in
                arguments += [idf[index], PostgresSearchStore.k1 + 1, PostgresSearchStore.k1]
                return "?::double precision * f\(index) * ?::double precision / (f\(index) + ?::double precision)"
            }.joined(separator: " + ")
            let columns = PostgresSearchStore.documentColumns.map { "doc.\($0)" }.joined(separator: ", ")
            let rows = try await db.rows(
                """
                WITH w AS (\(window)),
                r AS (SELECT id, \(score) AS score FROM w ORDER BY score DESC, id DESC LIMIT \(max(0, top)))
                SELECT r.id, s.size, s.oldest, doc.id AS document, \(columns)
                FROM (SELECT id, score, row_number() OVER (ORDER BY score DESC, id DESC) - 1 AS position FROM r) AS r
                CROSS JOIN (SELECT count(*) AS size, min(id) AS oldest FROM w) AS s
                LEFT JOIN searchDocuments doc ON doc.id = r.id AND doc.familyId = ? AND r.position >= ? AND r.position < ?
                ORDER BY r.score DESC, r.id DESC
                """,
                windowArguments + arguments + [familyID.sql, shown.lowerBound, shown.upperBound])
            let ranked = try rows.map { Int64(try $0.int("id")) }
            let documents = try rows.filter { try $0.optionalInt("document") != nil }
            guard let first = rows.first, try first.int("size") == size else { return (ranked, nil, documents) }
            return (ranked, try first.optionalInt("oldest").map(Int64.init), documents)
        }

        func any(_ db: PostgresTransaction, before: Int64) async throws -> Bool {
            var arguments: [SQLArgument] = []
            let candidates = candidates(before: before, limit: 1, arguments: &arguments)
            return try await db.exists(candidates, arguments)
        }
    }
}
