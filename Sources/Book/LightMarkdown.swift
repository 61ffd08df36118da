/// An entry's body as the book sets it: the light Markdown people type on a phone — paragraphs (a blank line between),
/// line breaks kept, `- ` or `* ` bullets and `1.` numbered items, `**strong**` and `*emphasis*` (or `_emphasis_`),
/// `# ` headings set as strong lines. Anything else is text, shown as typed: no HTML, no links, no images.
enum LightMarkdown {
    enum Block: Equatable {
        case paragraph([Inline])
        /// One item of a list: its marker (• or "3.") and text.
        case item(marker: String, [Inline])
        case heading([Inline])
    }

    enum Inline: Equatable {
        case text(String)
        case strong([Inline])
        case emphasis([Inline])
    }

    static func blocks(_ body: String) -> [Block] {
        var blocks: [Block] = []
        var paragraph: [String] = []
        func endParagraph() {
            if !paragraph.isEmpty { blocks.append(.paragraph(inlines(paragraph.joined(separator: "\n")))) }
            paragraph = []
        }
        for rawLine in body.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.trimmingTrailingWhitespace()
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty {
                endParagraph()
            } else if let rest = bullet(trimmed) {
                endParagraph()
                blocks.append(.item(marker: "•", inlines(String(rest))))
            } else if let (number, rest) = numbered(trimmed) {
                endParagraph()
                blocks.append(.item(marker: "\(number).", inlines(String(rest))))
            } else if let rest = heading(trimmed) {
                endParagraph()
                blocks.append(.heading(inlines(String(rest))))
            } else {
                paragraph.append(String(trimmed))
            }
        }
        endParagraph()
        return blocks
    }

    private static func bullet(_ line: Substring) -> Substring? {
        for marker in ["- ", "* ", "• ", "+ "] where line.hasPrefix(marker) {
            let rest = line.dropFirst(marker.count).drop { $0 == " " }
            return rest.isEmpty ? nil : rest
        }
        return nil
    }

    private static func numbered(_ line: Substring) -> (Int, Substring)? {
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        guard (1...3).contains(digits.count), let number = Int(digits) else { return nil }
        let after = line.dropFirst(digits.count)
        guard after.hasPrefix(". ") || after.hasPrefix(") ") else { return nil }
        let rest = after.dropFirst(2).drop { $0 == " " }
        return rest.isEmpty ? nil : (number, rest)
    }

    private static func heading(_ line: Substring) -> Substring? {
        let hashes = line.prefix { $0 == "#" }
        guard (1...6).contains(hashes.count), line.dropFirst(hashes.count).first == " " else { return nil }
        let rest = line.dropFirst(hashes.count).drop { $0 == " " }
        return rest.isEmpty ? nil : rest
    }

    /// Emphasis spans at most this many characters and nests at most `maxDepth` deep: a body full of unclosed
    /// markers costs time in proportion to its length, and no deep recursion.
    static let maxSpan = 300
    static let maxDepth = 3

    /// `**strong**`, `*emphasis*` and `_emphasis_`; a marker without its closing partner is text. Markers inside a
    /// word (`2*3*4`, `snake_case`) are text too, unless the text is Hangul, where words carry particles (`**새싹**이`).
    static func inlines(_ text: String) -> [Inline] {
        let characters = Array(text)
        return parse(characters, characters.startIndex..<characters.endIndex, depth: 0)
    }

    private static func parse(_ characters: [Character], _ range: Range<Int>, depth: Int) -> [Inline] {
        var result: [Inline] = []
        var plain = ""
        var index = range.lowerBound
        while index < range.upperBound {
            let character = characters[index]
            let marker: String? =
                matches(characters, at: index, "**", before: range.upperBound) ? "**" : (character == "*" || character == "_") ? String(character) : nil
            if let marker, depth < maxDepth, opens(characters, at: index, length: marker.count, before: range.upperBound) {
                let inside = index + marker.count
                if let end = closing(marker, in: characters, from: inside, before: min(range.upperBound, inside + maxSpan)) {
                    let inner = parse(characters, inside..<end, depth: depth + 1)
                    if !inner.isEmpty {
                        if !plain.isEmpty { result.append(.text(plain)) }
                        plain = ""
                        result.append(marker == "**" ? .strong(inner) : .emphasis(inner))
                        index = end + marker.count
                        continue
                    }
                }
            }
            plain.append(character)
            index += 1
        }
        if !plain.isEmpty { result.append(.text(plain)) }
        return result
    }

    /// Where `marker` closes a span opened just before `start`, looking no further than `limit`.
    private static func closing(_ marker: String, in characters: [Character], from start: Int, before limit: Int) -> Int? {
        var index = start + 1
        while index + marker.count <= limit {
            let single = marker.count == 1
            let doubled = single && ((index + 1 < characters.count && characters[index + 1] == characters[index]) || characters[index - 1] == characters[index])
            if matches(characters, at: index, marker, before: limit), !doubled, closes(characters, at: index, length: marker.count) {
                return index
            }
            index += 1
        }
        return nil
    }

    private static func matches(_ characters: [Character], at index: Int, _ marker: String, before limit: Int) -> Bool {
        var position = index
        for character in marker {
            guard position < limit, characters[position] == character else { return false }
            position += 1
        }
        return true
    }

    /// An opening marker is followed by a non-space and not preceded by a letter or digit (Hangul aside).
    private static func opens(_ characters: [Character], at index: Int, length: Int, before limit: Int) -> Bool {
        let next = index + length
        guard next < limit, !characters[next].isWhitespace else { return false }
        guard index > 0 else { return true }
        let before = characters[index - 1]
        return !(before.isLetter || before.isNumber) || before.isHangul
    }

    /// A closing marker follows a non-space and is not followed by a letter or digit (Hangul aside).
    private static func closes(_ characters: [Character], at index: Int, length: Int) -> Bool {
        guard index > 0, !characters[index - 1].isWhitespace else { return false }
        let next = index + length
        guard next < characters.count else { return true }
        let after = characters[next]
        return !(after.isLetter || after.isNumber) || after.isHangul
    }
}

extension Character {
    /// A Hangul syllable or jamo.
    var isHangul: Bool {
        unicodeScalars.first.map { (0xAC00...0xD7A3).contains($0.value) || (0x1100...0x11FF).contains($0.value) || (0x3130...0x318F).contains($0.value) } ?? false
    }
}

extension Substring {
    func trimmingTrailingWhitespace() -> Substring {
        var end = endIndex
        while end > startIndex, let last = self[..<end].last, last.isWhitespace { end = index(before: end) }
        return self[..<end]
    }
}
