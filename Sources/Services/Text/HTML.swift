/// The one way text becomes HTML, for element content and quoted attribute values alike: every page template (through
/// `HTMLContentType`, which `Templates` sets on each of them) and every piece of markup built in Swift (a search
/// hit's marked passage, the growth chart's SVG).
///
/// It works on Unicode scalars, never on `Character`s: a grapheme cluster may fuse a combining or prepended mark
/// (U+0301, U+0600) with `<`, `>` or `"` into one Character that equals none of them, and such text slipped
/// through unescaped (issue 17: a title redirected everyone who opened the timeline).
public enum HTML {
    public static func escape(_ text: String) -> String {
        text.replacingScalars { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&#39;"
            default: nil
            }
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
