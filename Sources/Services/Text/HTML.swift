/// The one way text becomes HTML, for element content and quoted attribute values alike: every page template (through
/// `HTMLContentType`, which `Templates` sets on each of them) and every piece of markup built in Swift (a search
/// hit's marked passage, the growth chart's SVG, the timeline's cards through `HTMLWriter`).
///
/// It works on UTF-8 bytes (which comes to the same as Unicode scalars), never on `Character`s: a grapheme cluster
/// may fuse a combining or prepended mark (U+0301, U+0600) with `<`, `>` or `"` into one Character that equals none
/// of them, and such text slipped through unescaped (issue 17: a title redirected everyone who opened the timeline).
public enum HTML {
    /// Escaped byte by byte: the five characters are ASCII, and no byte of a multi-byte UTF-8 sequence is, so this is
    /// the same as going by scalar — and text with none of them (nearly all) comes back as it is, uncopied. Going by
    /// scalar, appending each to a new string, was 5 % of a busy timeline's time (issue 35).
    public static func escape(_ text: String) -> String {
        var text = text
        guard text.withUTF8({ $0.contains { replacement(for: $0) != nil } }) else { return text }
        // The one escaping loop is `HTMLWriter.text`'s.
        var escaped = HTMLWriter(capacity: text.utf8.count + 32)
        escaped.text(text)
        return escaped.html
    }

    static func replacement(for byte: UInt8) -> String? {
        switch byte {
        case UInt8(ascii: "&"): "&amp;"
        case UInt8(ascii: "<"): "&lt;"
        case UInt8(ascii: ">"): "&gt;"
        case UInt8(ascii: "\""): "&quot;"
        case UInt8(ascii: "'"): "&#39;"
        default: nil
        }
    }
}

/// Markup written in Swift where a template costs too much (a list's repeated cards): literal markup as it is, text
/// escaped as `HTML.escape` does.
///
/// The page grows as UTF-8 bytes, and the bytes are what the response sends: each `+=` onto a `String` cost about
/// 340 instructions (its guts made ready for the append, its flags and breadcrumbs kept), and the month's cells and
/// the timeline's cards append some 800 times a page — a twentieth of either page's instructions (issue 35,
/// callgrind). Made into a `String` instead, the bytes are checked as UTF-8 again, which cost more than the appends
/// had: a writer is written into another one (`markup(_:)`), and only the layout's bytes leave. Every piece written
/// was a `String` (valid UTF-8), so the bytes are too.
public struct HTMLWriter: Sendable {
    /// The markup written so far, as UTF-8.
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 1024) { bytes.reserveCapacity(capacity) }

    /// A writer that starts with `markup`.
    public init(markup: String) {
        self.init(capacity: markup.utf8.count)
        self.markup(markup)
    }

    /// The markup written so far, as a string (checked as UTF-8 again: for tests and the rare caller that needs one).
    public var html: String { String(decoding: bytes, as: UTF8.self) }

    /// Markup of our own, as it is.
    public mutating func markup(_ markup: String) {
        var markup = markup
        markup.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Markup another writer wrote (a card, a week of the month), as it is.
    public mutating func markup(_ other: HTMLWriter) { bytes.append(contentsOf: other.bytes) }

    /// Text (or an attribute's value inside quotes), escaped: runs without a character to replace copied whole.
    public mutating func text(_ text: String) {
        var text = text
        text.withUTF8 { source in
            var start = 0
            for index in source.indices {
                // The five are `"`, `&`, `'`, `<`, `>`, all at most `>`: letters, digits past it and every byte of
                // Hangul are passed over with one comparison.
                guard source[index] <= UInt8(ascii: ">"), let replaced = HTML.replacement(for: source[index]) else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[start..<index]))
                bytes.append(contentsOf: replaced.utf8)
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[start...]))
        }
    }
}

extension String {
    /// The text with each Unicode scalar for which `replacement` gives a string replaced by it (an empty string drops
    /// the scalar); the others kept. The one loop under every escaping of ours (HTML, iCalendar).
    public func replacingScalars(_ replacement: (Unicode.Scalar) -> String?) -> String {
        var result = String.UnicodeScalarView()
        result.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            if let replaced = replacement(scalar) {
                result.append(contentsOf: replaced.unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
