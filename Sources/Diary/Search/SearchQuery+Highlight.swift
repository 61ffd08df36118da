import Foundation

extension SearchQuery {
    /// Marks what the query's terms match in `text`, the way the index matches: syllables anywhere (with spaces or
    /// tabs allowed between them, as 백일 잔치 for 백일잔치), words by their start ignoring case and accents, emoji as
    /// they are.
    public func highlight(_ text: String) -> Snippet {
        let characters = Array(text)
        var marked = [Bool](repeating: false, count: characters.count)
        for term in marks(characters) {
            for index in term.indices where term[index] { marked[index] = true }
        }
        var parts: [Snippet.Part] = []
        var start = 0
        for index in characters.indices.dropFirst() where marked[index] != marked[index - 1] {
            parts.append(Snippet.Part(String(characters[start..<index]), isMatch: marked[start]))
            start = index
        }
        if start < characters.count { parts.append(Snippet.Part(String(characters[start...]), isMatch: marked[start])) }
        return Snippet(parts)
    }

    /// What the terms find in a text, read once: its characters, how many separate runs each term marks (as
    /// `highlight` would with that term alone), and the first character any term marks.
    public struct Found: Sendable {
        public let characters: [Character]
        public let runs: [Int]
        public let first: Int?
    }

    public func find(in text: String) -> Found {
        let characters = Array(text)
        var first: Int?
        let runs = marks(characters).map { marked in
            var count = 0
            for index in marked.indices where marked[index] && (index == 0 || !marked[index - 1]) {
                count += 1
                first = min(first ?? index, index)
            }
            return count
        }
        return Found(characters: characters, runs: runs, first: first)
    }

    /// For each term, which of `characters` it marks.
    private func marks(_ characters: [Character]) -> [[Bool]] {
        // Folding is slow in Foundation: only when a word is looked for, and only outside ASCII.
        let folded = terms.contains { if case .word = $0 { true } else { false } } ? characters.map(Self.fold) : []
        return terms.map { term in
            var marked = [Bool](repeating: false, count: characters.count)
            func mark(_ range: Range<Int>) { for index in range { marked[index] = true } }
            switch term {
            case .syllables(let run):
                let needle = Array(run)
                for start in characters.indices where characters[start] == needle[0] {
                    if let end = Self.syllablesEnd(needle, in: characters, from: start) { mark(start..<end) }
                }
            case .word(let word):
                let needle = Array(word).map(Self.fold)
                for start in characters.indices where start + needle.count <= characters.count {
                    let startsWord = start == 0 || characters[start - 1].unicodeScalars.first.map(Kind.init) != .letter
                    if startsWord, Array(folded[start..<start + needle.count]) == needle { mark(start..<start + needle.count) }
                }
            case .symbol(let symbol):
                for index in characters.indices where characters[index].unicodeScalars.first.map(String.init) == symbol {
                    mark(index..<index + 1)
                }
            }
            return marked
        }
    }

    private static func fold(_ character: Character) -> String {
        if let ascii = character.asciiValue {
            return String(UnicodeScalar(ascii >= 65 && ascii <= 90 ? ascii + 32 : ascii))
        }
        return String(character).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// Where the syllables of `needle` end when they follow each other from `start`, spaces and tabs allowed between.
    private static func syllablesEnd(_ needle: [Character], in characters: [Character], from start: Int) -> Int? {
        var index = start + 1
        for syllable in needle.dropFirst() {
            while index < characters.count, characters[index] == " " || characters[index] == "\t" { index += 1 }
            guard index < characters.count, characters[index] == syllable else { return nil }
            index += 1
        }
        return index
    }
}
