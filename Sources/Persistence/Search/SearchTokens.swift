import Diary
import CSearchTokenizer

/// The tokens Saessak's search tokenizer (CModules/CSearchTokenizer) makes of a text, with their positions: exactly
/// what the SQLite index holds (a test compares them with an FTS5 index's own vocabulary), for an engine that keeps
/// its own token table (PostgreSQL). The C tokenizer runs without an index (`saessak_search_tokenize`).
public enum SearchTokens {
    /// A token of one column: its text and the positions it stands at (a syllable and the pair it starts share one).
    public struct Token: Equatable, Sendable {
        public let column: Int
        public let text: String
        public let positions: [Int]
    }

    /// How a query term looks its matches up: tokens at consecutive positions; the last one as a prefix for words.
    public struct Phrase: Equatable, Sendable {
        public let tokens: [String]
        public let prefix: Bool

        public init(tokens: [String], prefix: Bool) {
            self.tokens = tokens
            self.prefix = prefix
        }
    }

    /// The tokens of up to four columns (title, body, tags, place), columns numbered from 0, each with its positions
    /// as FTS5 counts them: the next position for each token, the same one for a token colocated with the previous.
    public static func document(_ columns: [String]) throws -> [Token] {
        guard columns.count <= 4 else { throw StoreError.unreadable("a search document has at most four columns") }
        var tokens: [Token] = []
        for (column, text) in columns.enumerated() {
            var walk = Walk()
            let bytes = text.utf8CString
            guard let length = Int32(exactly: bytes.count - 1) else { throw StoreError.unreadable("a search document too long to index") }
            let rc = bytes.withUnsafeBufferPointer { buffer in
                withUnsafeMutablePointer(to: &walk) { context in
                    saessak_search_tokenize(buffer.baseAddress, length, context) { context, flags, token, length, _, _ in
                        guard let context, let token, length >= 0 else { return 0 }
                        let walk = context.assumingMemoryBound(to: Walk.self)
                        let bytes = UnsafeRawBufferPointer(start: token, count: Int(length))
                        walk.pointee.add(String(decoding: bytes, as: UTF8.self), colocated: flags & 1 != 0)
                        return 0
                    }
                }
            }
            guard rc == 0 else { throw StoreError.unreadable("the search tokenizer failed (\(rc))") }
            tokens += walk.found.map { Token(column: column, text: $0.text.text, positions: $0.positions) }
        }
        return tokens
    }

    /// One column's tokens in the order they first appear, with their positions.
    private struct Walk {
        var position = -1
        var found: [(text: Bytes, positions: [Int])] = []
        var index: [Bytes: Int] = [:]

        mutating func add(_ token: String, colocated: Bool) {
            if !colocated || position < 0 { position += 1 }
            let key = Bytes(text: token)
            if let at = index[key] {
                if found[at].positions.last != position { found[at].positions.append(position) }
            } else {
                index[key] = found.count
                found.append((key, [position]))
            }
        }
    }

    /// A token compared and hashed by its UTF-8 bytes, as FTS5 compares them. (A `String` key compares Hangul by
    /// canonical equivalence, normalizing as it hashes: a third of tokenizing a Korean diary for PostgreSQL.)
    private struct Bytes: Hashable {
        var text: String

        static func == (a: Bytes, b: Bytes) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }

        func hash(into hasher: inout Hasher) {
            var text = text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    /// The phrase a query term looks up, as FTS5 reads the quoted term in `SQLiteSearchStore.expression`: a run of
    /// syllables as the pairs of its neighbours (one syllable alone as itself), a word's tokens with the last as a prefix.
    public static func phrase(_ term: SearchQuery.Term) throws -> Phrase {
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
