/// An e-mail address a member typed, checked before it is stored or written into a header: the plain `local@domain`
/// form (RFC 5321's dot-atom, ASCII), nothing that could end a header line or add a recipient.
public struct MailAddress: Hashable, Sendable, CustomStringConvertible {
    public let value: String

    public var description: String { value }

    /// Why a typed address cannot be used, in English (the pages say it in their own words).
    public enum Problem: Error, Equatable, Sendable {
        case empty, tooLong, notOneAt, badLocalPart, badDomain, notASCII
    }

    /// The characters RFC 5322 allows in an atom, besides letters and digits.
    private static let atomSymbols = Set("!#$%&'*+-/=?^_`{|}~".utf8)

    public init(_ text: String) throws(Problem) {
        let trimmed = text.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty else { throw .empty }
        guard trimmed.utf8.allSatisfy({ $0 < 0x80 }) else { throw .notASCII }
        guard trimmed.utf8.count <= 254 else { throw .tooLong }
        let halves = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard halves.count == 2 else { throw .notOneAt }
        let local = halves[0].utf8
        let domain = halves[1]
        guard (1...64).contains(local.count), Self.isDotAtom(local, allowed: { Self.isAlphanumeric($0) || Self.atomSymbols.contains($0) })
        else { throw .badLocalPart }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, domain.utf8.count <= 253,
            labels.allSatisfy({ label in
                let bytes = label.utf8
                return (1...63).contains(bytes.count) && bytes.allSatisfy { Self.isAlphanumeric($0) || $0 == UInt8(ascii: "-") }
                    && bytes.first != UInt8(ascii: "-") && bytes.last != UInt8(ascii: "-")
            })
        else { throw .badDomain }
        value = String(halves[0]) + "@" + domain.lowercased()
    }

    public var domain: Substring { value.split(separator: "@").last ?? "" }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Atoms joined by single dots: no dot first, last or twice in a row.
    private static func isDotAtom(_ bytes: Substring.UTF8View, allowed: (UInt8) -> Bool) -> Bool {
        var previousWasDot = true
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                if previousWasDot { return false }
                previousWasDot = true
            } else {
                guard allowed(byte) else { return false }
                previousWasDot = false
            }
        }
        return !previousWasDot
    }
}

extension MailAddress.Problem: CustomStringConvertible {
    public var description: String {
        switch self {
        case .empty: "is empty"
        case .tooLong: "is longer than 254 characters"
        case .notOneAt: "must have exactly one @"
        case .badLocalPart: "has a part before the @ that mail cannot carry"
        case .badDomain: "has no valid domain after the @"
        case .notASCII: "must be written in ASCII letters (an international domain in its xn-- form)"
        }
    }
}

extension String {
    func trimmingASCIIWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first...last]
    }
}
