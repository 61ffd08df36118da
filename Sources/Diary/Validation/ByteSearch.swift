/// Whether some bytes hold others, byte for byte: a plain scan, for a file's first bytes (its format's marks) and for
/// text a pattern needs before it is worth running. (The standard library's generic `firstRange(of:)` looked its
/// types up at run time on every call, and cost an importer what the check saved.)
public enum ByteSearch {
    public static func contains(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first else { return true }
        guard needle.count <= haystack.count else { return false }
        var start = 0
        while start <= haystack.count - needle.count {
            if haystack[start] == first {
                var matched = 1
                while matched < needle.count, haystack[start + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return true }
            }
            start += 1
        }
        return false
    }

    /// Whether `text`'s UTF-8 holds `part`'s.
    public static func contains(_ part: String, in text: String) -> Bool {
        var text = text
        var part = part
        return text.withUTF8 { haystack in part.withUTF8 { needle in contains(needle, in: haystack) } }
    }

    /// Whether `bytes` hold `part`'s UTF-8.
    public static func contains(_ part: String, in bytes: [UInt8]) -> Bool {
        var part = part
        return bytes.withUnsafeBufferPointer { haystack in part.withUTF8 { needle in contains(needle, in: haystack) } }
    }
}
