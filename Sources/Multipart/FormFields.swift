/// The fields of a posted `application/x-www-form-urlencoded` form. `form["name"]` is a field's first value;
/// `form.all("name")` every value (checkboxes). Parsed from anyone's bytes: a name or value that does not decode
/// is empty, never a trap.
public struct FormFields: Sendable {
    public private(set) var values: [String: [String]] = [:]

    public init(_ values: [String: [String]] = [:]) { self.values = values }

    public init(parsing text: String) {
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = parts.first else { continue }
            values[Self.decode(name), default: []].append(parts.count > 1 ? Self.decode(parts[1]) : "")
        }
    }

    public subscript(name: String) -> String? { values[name]?.first }

    public func all(_ name: String) -> [String] { values[name] ?? [] }

    /// A field's text without surrounding white space, or nil when it is missing or blank.
    public func text(_ name: String) -> String? {
        guard var scalars = self[name].map({ Substring($0).unicodeScalars }) else { return nil }
        while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        return scalars.isEmpty ? nil : String(scalars)
    }

    /// `+` as a space, then `%XX` escapes, by byte; a broken escape or bytes that are not UTF-8 give "".
    static func decode(_ part: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(part.utf8.count)
        var iterator = part.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return "" }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? ""
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
