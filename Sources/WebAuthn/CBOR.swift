/// A CBOR value (RFC 8949) as WebAuthn uses it: an authenticator's attestation object and its COSE public keys.
///
/// Read from outside bytes (what a browser posts), so the reader trusts nothing: every length is checked against the
/// bytes left before anything is allocated, nesting is limited, indefinite lengths (which CTAP2's canonical form never
/// uses) are refused, and a text string must be UTF-8. A malformed input is a `CBOR.Error`, never a trap.
public indirect enum CBOR: Sendable, Equatable {
    case unsigned(UInt64)
    /// A negative integer −1 − n, kept as n (CBOR's own form) so that −2⁶⁴ fits.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    case map([(key: CBOR, value: CBOR)])
    case tagged(UInt64, CBOR)
    case bool(Bool)
    case null
    case undefined
    /// Floats and the simple values nobody uses here: kept as their major-7 argument.
    case simple(UInt64)

    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case truncated
        case tooDeep
        case indefiniteLength
        case reservedArgument
        case invalidText
        case trailingBytes

        public var description: String {
            switch self {
            case .truncated: "the CBOR ends in the middle of a value"
            case .tooDeep: "the CBOR nests deeper than \(CBOR.maxDepth) levels"
            case .indefiniteLength: "the CBOR uses an indefinite length"
            case .reservedArgument: "the CBOR uses a reserved length code"
            case .invalidText: "a CBOR text string is not UTF-8"
            case .trailingBytes: "bytes follow the CBOR value"
            }
        }
    }

    /// Attestation objects nest four levels; COSE keys two.
    public static let maxDepth = 16

    /// Decodes exactly one value from `bytes` (nothing may follow).
    public init(decoding bytes: some Collection<UInt8>) throws(CBOR.Error) {
        var reader = CBORReader(Array(bytes))
        self = try reader.value(depth: 0)
        guard reader.isAtEnd else { throw .trailingBytes }
    }

    /// Decodes one value at the start of `bytes` and says how many bytes it took (authenticator data carries a COSE
    /// key followed by extensions).
    public static func decodePrefix(_ bytes: some Collection<UInt8>) throws(CBOR.Error) -> (value: CBOR, length: Int) {
        var reader = CBORReader(Array(bytes))
        let value = try reader.value(depth: 0)
        return (value, reader.offset)
    }

    /// The value of a map's key, or nil (not a map, or no such key).
    public subscript(key: CBOR) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    public subscript(text key: String) -> CBOR? { self[.text(key)] }

    /// A map's integer key, as COSE labels are (1, 3, −1, −2 …).
    public subscript(label label: Int) -> CBOR? { self[CBOR(integer: label)] }

    public init(integer: Int) {
        self = integer >= 0 ? .unsigned(UInt64(integer)) : .negative(UInt64(-(integer + 1)))
    }

    /// The value as an `Int`, when it is an integer that fits.
    public var integer: Int? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n): n <= UInt64(Int.max) ? -1 - Int(n) : nil
        default: nil
        }
    }

    public var byteString: [UInt8]? {
        if case .bytes(let bytes) = self { bytes } else { nil }
    }

    public var textString: String? {
        if case .text(let text) = self { text } else { nil }
    }

    public static func == (left: CBOR, right: CBOR) -> Bool {
        switch (left, right) {
        case (.unsigned(let a), .unsigned(let b)), (.negative(let a), .negative(let b)), (.simple(let a), .simple(let b)): a == b
        case (.bytes(let a), .bytes(let b)): a == b
        case (.text(let a), .text(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.map(let a), .map(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.tagged(let tagA, let a), .tagged(let tagB, let b)): tagA == tagB && a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null), (.undefined, .undefined): true
        default: false
        }
    }
}

/// Reads CBOR items from a byte array, checking every length against what is left.
private struct CBORReader {
    let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }
    private var remaining: Int { bytes.count - offset }

    mutating func value(depth: Int) throws(CBOR.Error) -> CBOR {
        guard depth <= CBOR.maxDepth else { throw .tooDeep }
        let initial = try byte()
        let major = initial >> 5
        let argument = try self.argument(initial & 0x1F, major: major)
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2: return .bytes(try take(argument))
        case 3:
            guard let text = String(validating: try take(argument), as: UTF8.self) else { throw .invalidText }
            return .text(text)
        case 4:
            // Every item takes at least one byte: a count beyond what is left is a lie, refused before reserving.
            let count = try count(argument, bytesEach: 1)
            var items: [CBOR] = []
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(try value(depth: depth + 1)) }
            return .array(items)
        case 5:
            let count = try count(argument, bytesEach: 2)
            var pairs: [(key: CBOR, value: CBOR)] = []
            pairs.reserveCapacity(count)
            for _ in 0..<count {
                let key = try value(depth: depth + 1)
                pairs.append((key, try value(depth: depth + 1)))
            }
            return .map(pairs)
        case 6: return .tagged(argument, try value(depth: depth + 1))
        default:
            switch initial & 0x1F {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            case 23: return .undefined
            default: return .simple(argument)
            }
        }
    }

    private mutating func byte() throws(CBOR.Error) -> UInt8 {
        guard offset < bytes.count else { throw .truncated }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The argument of an initial byte: the value itself below 24, else the next 1, 2, 4 or 8 bytes.
    private mutating func argument(_ info: UInt8, major: UInt8) throws(CBOR.Error) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24: return try bigEndian(1)
        case 25: return try bigEndian(2)
        case 26: return try bigEndian(4)
        case 27: return try bigEndian(8)
        case 31: throw .indefiniteLength
        default: throw .reservedArgument
        }
    }

    private mutating func bigEndian(_ count: Int) throws(CBOR.Error) -> UInt64 {
        guard remaining >= count else { throw .truncated }
        var value: UInt64 = 0
        for _ in 0..<count { value = value << 8 | UInt64(bytes[offset]); offset += 1 }
        return value
    }

    private func count(_ argument: UInt64, bytesEach: Int) throws(CBOR.Error) -> Int {
        guard argument <= UInt64(remaining / bytesEach) else { throw .truncated }
        return Int(argument)
    }

    private mutating func take(_ length: UInt64) throws(CBOR.Error) -> [UInt8] {
        guard length <= UInt64(remaining) else { throw .truncated }
        let end = offset + Int(length)
        defer { offset = end }
        return Array(bytes[offset..<end])
    }
}
