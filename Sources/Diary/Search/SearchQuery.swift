import KoreanCalendar

/// What someone typed into the search box, split into the pieces the index looks up. Every term must match.
///
/// Korean is searched by syllables, anywhere inside words: `아기` finds 아기가, 아기를 and 아기랑; `돌` finds 돌잔치.
/// Other letters and digits are words found by their start, case-insensitively (`beach` finds Beaches).
public struct SearchQuery: Hashable, Sendable {
    public enum Term: Hashable, Sendable {
        /// A run of Hangul (or Han, kana) syllables, found anywhere in the text.
        case syllables(String)
        /// Letters and digits of other scripts, found as a word or the beginning of one.
        case word(String)
        /// One emoji.
        case symbol(String)
    }

    public let text: String
    public let terms: [Term]

    public static let maxLength = 200

    /// Splits at white space, and within a piece wherever the kind of character changes (`3월에` is 3 and 월에).
    public init(_ text: String) throws(ValidationError) {
        let trimmed = try Validate.requiredText(text, field: "q", maxLength: Self.maxLength)
        var terms: [Term] = []
        var run = ""
        var runKind: Kind?
        func finish() {
            if let runKind, !run.isEmpty {
                let term: Term = runKind == .syllable ? .syllables(run) : .word(run.lowercased())
                if !terms.contains(term) { terms.append(term) }
            }
            run = ""
            runKind = nil
        }
        for scalar in trimmed.unicodeScalars {
            let kind = Kind(scalar)
            switch kind {
            case .separator:
                finish()
            case .emoji:
                finish()
                if !terms.contains(.symbol(String(scalar))) { terms.append(.symbol(String(scalar))) }
            case .syllable, .letter:
                if runKind != kind { finish() }
                runKind = kind
                run.unicodeScalars.append(scalar)
            }
        }
        finish()
        guard !terms.isEmpty else {
            throw ValidationError(field: "q", "has no letters, digits or emoji to search for")
        }
        self.text = trimmed
        self.terms = terms
    }

    /// Whether the index takes this character as a syllable (Hangul, Han, kana): the tokenizer's own ranges.
    public static func isSyllable(_ scalar: Unicode.Scalar) -> Bool { Kind(scalar) == .syllable }

    /// The classes the index knows; the same ranges as the FTS5 tokenizer (CModules/CSearchTokenizer).
    enum Kind {
        case syllable, letter, emoji, separator

        init(_ scalar: Unicode.Scalar) {
            switch scalar.value {
            case 0xAC00...0xD7A3, 0x1100...0x11FF, 0x3131...0x318E, 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
                0xF900...0xFAFF, 0x20000...0x2FA1F:
                self = .syllable
            case 0x1F3FB...0x1F3FF:
                self = .separator  // skin-tone modifiers: part of the emoji before them
            case 0x1F000...0x1FAFF, 0x2600...0x27BF, 0x2300...0x23FF, 0x2B00...0x2BFF:
                self = .emoji
            default:
                let properties = scalar.properties
                self = properties.isAlphabetic || properties.numericType != nil ? .letter : .separator
            }
        }
    }
}

/// What narrows a search besides the words: a child and a date range apply to diary entries, so a narrowed search
/// finds entries only (memos have neither).
public struct SearchFilter: Hashable, Sendable {
    public var childID: ChildID?
    public var from: SolarDate?
    public var to: SolarDate?

    public init(childID: ChildID? = nil, from: SolarDate? = nil, to: SolarDate? = nil) throws(ValidationError) {
        if let from, let to, to < from {
            throw ValidationError(field: "to", "\(to.iso) is before from \(from.iso)")
        }
        self.childID = childID
        self.from = from
        self.to = to
    }

    public var narrowsToEntries: Bool { childID != nil || from != nil || to != nil }
}

/// One search result: an entry or a memo, with the best-matching passage.
public struct SearchHit: Hashable, Sendable {
    public enum Kind: String, Sendable {
        case entry, memo
    }

    public let kind: Kind
    /// The entry's or memo's ID.
    public let id: String
    public let title: String
    public let snippet: Snippet

    public init(kind: Kind, id: String, title: String, snippet: Snippet) {
        self.kind = kind
        self.id = id
        self.title = title
        self.snippet = snippet
    }
}

/// A passage of text with the parts that matched the query marked.
public struct Snippet: Hashable, Sendable {
    public struct Part: Hashable, Sendable {
        public let text: String
        public let isMatch: Bool

        public init(_ text: String, isMatch: Bool) {
            self.text = text
            self.isMatch = isMatch
        }
    }

    public let parts: [Part]

    public init(_ parts: [Part]) { self.parts = parts }

    public var text: String { parts.map(\.text).joined() }
}
