import Foundation

extension SearchQuery {
    /// Marks what the query's terms match in `text`, the way the index matches: syllables anywhere (with spaces or
    /// tabs allowed between them, as 백일 잔치 for 백일잔치), words by their start ignoring case and accents, emoji as
    /// they are.
    public func highlight(_ text: String) -> Snippet {
        let characters = Array(text)
        var marked = [Bool](repeating: false, count: characters.count)
        for term in marks(Letters(characters)) {
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
        let scalars: [Unicode.Scalar?]

        /// Where each of the tokenizer's positions starts: each syllable is one, each run of other letters or digits
        /// one.
        public var unitStarts: [Int] {
            var starts: [Int] = []
            var inWord = false
            for (index, character) in characters.enumerated() {
                let isSyllable: Bool
                let isLetter: Bool
                // Hangul, its letters and the common Han characters, and ASCII, without Unicode's tables.
                if let scalar = scalars[index], scalar.value >= 0x3131, scalar.value <= 0xD7A3 {
                    (isSyllable, isLetter) = (true, false)
                } else if let scalar = scalars[index], scalar.isASCII {
                    let folded = scalar.value | 0x20
                    (isSyllable, isLetter) = (false, folded >= 0x61 && folded <= 0x7A || scalar.value >= 0x30 && scalar.value <= 0x39)
                } else {
                    isSyllable = character.unicodeScalars.first.map(SearchQuery.isSyllable) ?? false
                    isLetter = character.isLetter || character.isNumber
                }
                if isSyllable {
                    starts.append(index)
                    inWord = false
                } else if isLetter {
                    if !inWord { starts.append(index) }
                    inWord = true
                } else {
                    inWord = false
                }
            }
            return starts
        }
    }

    public func find(in text: String) -> Found {
        let letters = Letters(text)
        let characters = letters.characters
        var first: Int?
        let runs = marks(letters).map { marked in
            var count = 0
            for index in marked.indices where marked[index] && (index == 0 || !marked[index - 1]) {
                count += 1
                first = min(first ?? index, index)
            }
            return count
        }
        return Found(characters: characters, runs: runs, first: first, scalars: letters.scalars)
    }

    /// A text's characters, and for each the one scalar that decides its equality to another, where there is one.
    ///
    /// `Character`'s `==` is canonical equivalence (가 is ᄀ followed by ᅡ), which Swift decides by normalising
    /// both sides: most of a search's passages' time on PostgreSQL went to it. A character of one scalar from the
    /// ranges below is equal to another such one exactly when the scalars are the same: none of them has a canonical
    /// decomposition but the Hangul syllables', which are all different and none a scalar of the others. Anything else
    /// (a decomposed syllable, a letter and its accent, a sign equal to a letter, an emoji sequence) is compared by
    /// `==` as before.
    struct Letters {
        let characters: [Character]
        let scalars: [Unicode.Scalar?]

        init(_ characters: [Character]) {
            self.characters = characters
            scalars = characters.map(Self.scalar)
        }

        init(_ text: String) { self.init(Array(text)) }

        var count: Int { characters.count }

        /// Whether the character at `index` is `other` (its scalar as `Letters.scalar` gives it).
        func holds(_ other: Character, _ otherScalar: Unicode.Scalar?, at index: Int) -> Bool {
            if let scalar = scalars[index], let otherScalar { return scalar == otherScalar }
            return characters[index] == other
        }

        func holds(_ other: Letters, _ otherIndex: Int, at index: Int) -> Bool {
            holds(other.characters[otherIndex], other.scalars[otherIndex], at: index)
        }

        static func scalar(_ character: Character) -> Unicode.Scalar? {
            let scalars = character.unicodeScalars
            guard let first = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex else { return nil }
            switch first.value {
            case 0x00...0x7F, 0x3131...0x318E, 0xAC00...0xD7A3, 0x4E00...0x9FFF, 0x1F300...0x1FAFF: return first
            default: return nil
            }
        }
    }

    /// For each term, which of `text`'s characters it marks.
    private func marks(_ text: Letters) -> [[Bool]] {
        let characters = text.characters
        // Folding is slow in Foundation: only when a word is looked for, and only outside ASCII.
        let folded = terms.contains { if case .word = $0 { true } else { false } } ? characters.map(Self.fold) : []
        return terms.map { term in
            var marked = [Bool](repeating: false, count: characters.count)
            func mark(_ range: Range<Int>) { for index in range { marked[index] = true } }
            switch term {
            case .syllables(let run):
                let needle = Letters(run)
                for start in characters.indices where text.holds(needle, 0, at: start) {
                    if let end = Self.syllablesEnd(needle, in: text, from: start) { mark(start..<end) }
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
    private static func syllablesEnd(_ needle: Letters, in text: Letters, from start: Int) -> Int? {
        var index = start + 1
        for syllable in needle.characters.indices.dropFirst() {
            while index < text.count, text.holds(" ", " ", at: index) || text.holds("\t", "\t", at: index) { index += 1 }
            guard index < text.count, text.holds(needle, syllable, at: index) else { return nil }
            index += 1
        }
        return index
    }
}
