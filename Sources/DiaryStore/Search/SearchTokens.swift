import Diary
import GRDB
import Persistence

/// The tokens Saessak's search tokenizer (CModules/CSearchTokenizer) makes of a text, with their positions, read back
/// from an FTS5 index in memory: exactly what the SQLite index holds, for an engine that keeps its own token table
/// (PostgreSQL). One in-memory database serves the whole process, one document at a time.
package enum SearchTokens {
    /// A token of one column: its text and the positions it stands at (a syllable and the pair it starts share one).
    package struct Token: Equatable, Sendable {
        package let column: Int
        package let text: String
        package let positions: [Int]
    }

    /// How a query term looks its matches up: tokens at consecutive positions; the last one as a prefix for words.
    package struct Phrase: Equatable, Sendable {
        package let tokens: [String]
        package let prefix: Bool
    }

    private static let queue: DatabaseQueue? = {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try SearchIndex.registerTokenizer(db) }
        return try? DatabaseQueue(configuration: configuration).then { queue in
            try queue.write { db in
                try db.execute(sql: """
                    CREATE VIRTUAL TABLE document USING fts5(c0, c1, c2, c3, tokenize = 'saessak');
                    CREATE VIRTUAL TABLE documentTerms USING fts5vocab(document, instance);
                    """)
            }
        }
    }()

    /// The tokens of up to four columns (title, body, tags, place), columns numbered from 0.
    package static func document(_ columns: [String]) throws -> [Token] {
        guard let queue, columns.count <= 4 else { throw StoreError.unreadable("the search tokenizer could not start") }
        let padded = columns + Array(repeating: "", count: 4 - columns.count)
        return try queue.write { db in
            try db.execute(sql: "INSERT INTO document (rowid, c0, c1, c2, c3) VALUES (1, ?, ?, ?, ?)", arguments: StatementArguments(padded))
            defer { try? db.execute(sql: "DELETE FROM document") }
            var positions: [String: [Int]] = [:]
            var order: [String] = []
            for row in try Row.fetchAll(db, sql: "SELECT term, col, offset FROM documentTerms ORDER BY col, offset") {
                let column: String = row["col"]
                let key = "\(column.dropFirst())\u{0}\(row["term"] as String)"
                if positions[key] == nil { order.append(key) }
                positions[key, default: []].append(row["offset"])
            }
            return order.compactMap { key in
                let parts = key.split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, let column = Int(parts[0]), let offsets = positions[key] else { return nil }
                return Token(column: column, text: String(parts[1]), positions: offsets)
            }
        }
    }

    /// The phrase a query term looks up, as FTS5 reads the quoted term in `SQLiteSearchStore.expression`: a run of
    /// syllables as the pairs of its neighbours (one syllable alone as itself), a word's tokens with the last as a prefix.
    package static func phrase(_ term: SearchQuery.Term) throws -> Phrase {
        switch term {
        case .syllables(let run):
            let scalars = Array(run.unicodeScalars)
            guard scalars.count > 1 else { return Phrase(tokens: [run], prefix: false) }
            let pairs = zip(scalars, scalars.dropFirst()).map { first, second in
                var pair = String.UnicodeScalarView()
                pair.append(first)
                pair.append(second)
                return String(pair)
            }
            return Phrase(tokens: pairs, prefix: false)
        case .word(let text), .symbol(let text):
            var byPosition: [Int: String] = [:]
            for token in try document([text]) {
                for position in token.positions where byPosition[position] == nil { byPosition[position] = token.text }
            }
            let tokens = byPosition.keys.sorted().compactMap { byPosition[$0] }
            if case .word = term { return Phrase(tokens: tokens, prefix: true) }
            return Phrase(tokens: tokens, prefix: false)
        }
    }
}

extension DatabaseQueue {
    fileprivate func then(_ body: (DatabaseQueue) throws -> Void) throws -> DatabaseQueue {
        try body(self)
        return self
    }
}
