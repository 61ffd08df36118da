import Mustache

/// The one way text becomes HTML, for element content and quoted attribute values alike: every page template (through
/// `ContentType`, which `Templates` sets on each of them) and every piece of markup built in Swift.
///
/// It works on Unicode scalars, never on `Character`s: a grapheme cluster may fuse a combining or prepended mark
/// (U+0301, U+0600) with `<`, `>` or `"` into one Character that equals none of them, and such text slipped
/// through unescaped (issue 17: a title redirected everyone who opened the timeline).
enum HTML {
    static func escape(_ text: String) -> String {
        var escaped = String.UnicodeScalarView()
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped.append(contentsOf: "&amp;".unicodeScalars)
            case "<": escaped.append(contentsOf: "&lt;".unicodeScalars)
            case ">": escaped.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": escaped.append(contentsOf: "&quot;".unicodeScalars)
            case "'": escaped.append(contentsOf: "&#39;".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    /// swift-mustache's own HTML escaping goes by Character; templates use this instead.
    struct ContentType: MustacheContentType {
        static let name = "SAESSAK_HTML"

        func escapeText(_ text: String) -> String { HTML.escape(text) }
    }
}
