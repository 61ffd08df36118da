/// Finds a key that appears twice in one object of a JSON text. Foundation's decoder keeps the first and says
/// nothing, another reader (a proxy, a log pipeline) may keep the last: the same body would mean two things (issue
/// 33), so the API refuses it. Reads bytes without trusting them: no recursion (an explicit stack), every index
/// checked, keys compared as the decoder sees them (escapes decoded: `"a"` and `"\u0061"` are one key). Malformed
/// JSON is not its business: it answers nil and leaves the refusal to the decoder.
public enum JSONDuplicateKeys {
    /// Nesting deeper than this is left to the decoder, which refuses it.
    static let maxDepth = 512

    /// The first key found twice in one object, or nil.
    public static func first(in bytes: some Collection<UInt8>) -> String? {
        let bytes = Array(bytes)
        var index = 0
        // One frame per open object (its keys so far, and whether a key comes next) or array (nil).
        var frames: [(keys: Set<[UInt8]>, expectsKey: Bool)?] = []
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"):
                guard frames.count < maxDepth else { return nil }
                frames.append((keys: [], expectsKey: true))
                index += 1
            case UInt8(ascii: "["):
                guard frames.count < maxDepth else { return nil }
                frames.append(nil)
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard !frames.isEmpty else { return nil }
                frames.removeLast()
                index += 1
            case UInt8(ascii: ","):
                if let last = frames.last, var object = last {
                    object.expectsKey = true
                    frames[frames.count - 1] = object
                }
                index += 1
            case UInt8(ascii: "\""):
                guard let (text, end) = string(bytes, from: index) else { return nil }
                index = end
                if let last = frames.last, var object = last, object.expectsKey {
                    guard object.keys.insert(text).inserted else { return String(decoding: text.prefix(200), as: UTF8.self) }
                    object.expectsKey = false
                    frames[frames.count - 1] = object
                }
            default:
                index += 1
            }
        }
        return nil
    }

    /// The decoded bytes of the string starting at `start` (a quote) and the index after its closing quote; nil when
    /// it does not end.
    static func string(_ bytes: [UInt8], from start: Int) -> (text: [UInt8], end: Int)? {
        var text: [UInt8] = []
        var index = start + 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { return (text, index + 1) }
            guard byte == UInt8(ascii: "\\") else {
                text.append(byte)
                index += 1
                continue
            }
            guard index + 1 < bytes.count else { return nil }
            let escaped = bytes[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "u"):
                guard let unit = hex(bytes, at: index) else { return nil }
                index += 4
                var scalar = Unicode.Scalar(unit)
                // A surrogate pair written as two escapes is one character.
                if (0xD800..<0xDC00).contains(unit), index + 5 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u"), let low = hex(bytes, at: index + 2), (0xDC00..<0xE000).contains(low)
                {
                    scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                    index += 6
                }
                // A lone surrogate has no scalar: kept as its escape, which no other key spells.
                text.append(contentsOf: scalar.map { Array(String($0).utf8) } ?? Array("\\u\(String(unit, radix: 16))".utf8))
            default: text.append(escaped)
            }
        }
        return nil
    }

    /// Four hexadecimal digits at `index`, or nil.
    static func hex(_ bytes: [UInt8], at index: Int) -> UInt32? {
        guard index >= 0, index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
