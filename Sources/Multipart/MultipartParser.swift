#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A streaming parser of `multipart/form-data` bodies (RFC 7578 over RFC 2046), written for bytes from anyone:
/// every length is checked before it is used, nothing is trusted to be ASCII, and the memory it holds is bounded
/// (one part's headers, or the few bytes that may begin a delimiter) however the body is cut into chunks.
///
/// Feed it the body as it arrives; it calls back with each part's headers, the part's bytes (a view valid only
/// during the call) and the part's end. `finish()` tells whether the closing delimiter came.
public struct MultipartParser {
    /// One part's header lines together, CRLFs included.
    public static let maxHeaderBytes = 16 * 1024
    /// Header lines in one part.
    public static let maxHeaders = 32
    /// Bytes of a boundary (RFC 2046 allows 70; browsers use about 40).
    public static let maxBoundaryBytes = 200

    public enum Event {
        /// A new part begins, with its header lines in order.
        case part([MultipartHeader])
        /// Bytes of the current part; valid only during the call.
        case body(UnsafeRawBufferPointer)
        /// The current part ended (its delimiter came).
        case partEnd
    }

    private enum State {
        case preamble, afterDelimiter, headers, body, done
    }

    /// `CRLF--boundary`: a delimiter, including the line break that precedes it.
    private let delimiter: [UInt8]
    private let maxParts: Int
    private var state = State.preamble
    /// Bytes not yet consumed. It starts with a CRLF, so that a body opening with `--boundary` finds it too.
    private var pending: [UInt8] = [13, 10]
    private var headers: [MultipartHeader] = []
    private var headerBytes = 0
    public private(set) var partCount = 0

    /// A parser for `boundary` (the Content-Type's parameter, quotes removed), reading at most `maxParts` parts.
    public init(boundary: String, maxParts: Int = 1000) throws(MultipartError) {
        let bytes = Array(boundary.utf8)
        guard !bytes.isEmpty else { throw .badBoundary("the boundary is empty") }
        guard bytes.count <= Self.maxBoundaryBytes else { throw .badBoundary("the boundary is longer than \(Self.maxBoundaryBytes) bytes") }
        guard bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else {
            throw .badBoundary("the boundary holds a byte that is not printable ASCII")
        }
        delimiter = [13, 10, 45, 45] + bytes
        self.maxParts = max(1, maxParts)
    }

    /// True once the closing delimiter (`--boundary--`) has been read.
    public var isComplete: Bool { state == .done }

    /// Throws `.truncated` unless the closing delimiter came.
    public func finish() throws(MultipartError) {
        guard state == .done else { throw .truncated }
    }

    /// Parses the next bytes of the body, calling `handle` for what they complete. An error from `handle` is
    /// passed on; after any error the parser is not to be fed again.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ handle: (Event) throws -> Void) throws {
        guard state != .done else { return }  // the epilogue is ignored
        pending.append(contentsOf: bytes)
        var consumed = 0
        do {
            let buffer = pending
            try buffer.withUnsafeBytes { raw in consumed = try process(raw, handle) }
        }
        if consumed >= pending.count {
            pending.removeAll(keepingCapacity: true)
        } else if consumed > 0 {
            pending.removeFirst(consumed)
        }
    }

    /// Convenience for tests and small bodies.
    public mutating func feed(_ bytes: [UInt8], _ handle: (Event) throws -> Void) throws {
        try bytes.withUnsafeBytes { raw in try feed(raw, handle) }
    }

    /// Works through `raw` as far as it can; returns how many bytes are done with.
    private mutating func process(_ raw: UnsafeRawBufferPointer, _ handle: (Event) throws -> Void) throws -> Int {
        var start = 0
        while start <= raw.count {
            switch state {
            case .preamble:
                guard let found = Self.find(delimiter, in: raw, from: start) else {
                    return max(start, raw.count - (delimiter.count - 1))
                }
                start = found + delimiter.count
                state = .afterDelimiter

            case .afterDelimiter:
                // `--` closes the body; otherwise optional spaces or tabs, then CRLF, then the next part's headers.
                guard raw.count - start >= 2 else { return start }
                if raw[start] == 45, raw[start + 1] == 45 {
                    state = .done
                    return raw.count
                }
                var index = start
                while index < raw.count, raw[index] == 32 || raw[index] == 9 { index += 1 }
                guard index - start <= 256 else { throw MultipartError.malformed("a delimiter line is followed by too much padding") }
                guard raw.count - index >= 2 else { return start }
                guard raw[index] == 13, raw[index + 1] == 10 else {
                    throw MultipartError.malformed("a delimiter is followed by something other than a line break")
                }
                partCount += 1
                guard partCount <= maxParts else { throw MultipartError.tooManyParts(maxParts) }
                headers = []
                headerBytes = 0
                start = index + 2
                state = .headers

            case .headers:
                guard let lineEnd = Self.find(Self.crlf, in: raw, from: start) else {
                    guard headerBytes + (raw.count - start) <= Self.maxHeaderBytes else { throw MultipartError.headersTooLong }
                    return start
                }
                headerBytes += lineEnd - start + 2
                guard headerBytes <= Self.maxHeaderBytes else { throw MultipartError.headersTooLong }
                let line = UnsafeRawBufferPointer(rebasing: raw[start..<lineEnd])
                start = lineEnd + 2
                if line.isEmpty {
                    state = .body
                    try handle(.part(headers))
                } else {
                    guard headers.count < Self.maxHeaders else { throw MultipartError.malformed("a part has more than \(Self.maxHeaders) header lines") }
                    headers.append(try MultipartHeader(line: line))
                }

            case .body:
                if let found = Self.find(delimiter, in: raw, from: start) {
                    if found > start { try handle(.body(UnsafeRawBufferPointer(rebasing: raw[start..<found]))) }
                    start = found + delimiter.count
                    state = .afterDelimiter
                    try handle(.partEnd)
                } else {
                    // The last bytes may be the beginning of a delimiter: keep them for the next chunk.
                    let end = raw.count - (delimiter.count - 1)
                    guard end > start else { return start }
                    try handle(.body(UnsafeRawBufferPointer(rebasing: raw[start..<end])))
                    return end
                }

            case .done:
                return raw.count
            }
        }
        return raw.count
    }

    private static let crlf: [UInt8] = [13, 10]

    /// The first index at or after `from` where `needle` occurs whole in `haystack`.
    static func find(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let base = haystack.baseAddress, let first = needle.first, from >= 0 else { return nil }
        var index = from
        while haystack.count - index >= needle.count {
            guard let hit = memchr(base + index, Int32(first), haystack.count - index) else { return nil }
            let position = base.distance(to: UnsafeRawPointer(hit))
            guard haystack.count - position >= needle.count else { return nil }
            let matches = needle.withUnsafeBytes { memcmp(base + position, $0.baseAddress!, needle.count) == 0 }
            if matches { return position }
            index = position + 1
        }
        return nil
    }
}

/// One header line of a part, such as `Content-Disposition: form-data; name="photo"; filename="a.jpg"`.
public struct MultipartHeader: Sendable, Equatable {
    /// As sent (compare ignoring ASCII case).
    public let name: String
    /// The value with surrounding spaces removed, decoded as UTF-8 (browsers send file names that way), invalid
    /// sequences replaced.
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    init(line: UnsafeRawBufferPointer) throws(MultipartError) {
        guard let colon = line.firstIndex(of: 58) else { throw .malformed("a part's header line has no colon") }
        let name = UnsafeRawBufferPointer(rebasing: line[..<colon])
        guard !name.isEmpty, name.allSatisfy(Self.isTokenByte) else {
            throw .malformed("a part's header name is empty or holds a byte that is not allowed (only ASCII letters, digits and !#$%&'*+-.^_`|~)")
        }
        var valueStart = colon + 1
        var valueEnd = line.count
        while valueStart < valueEnd, line[valueStart] == 32 || line[valueStart] == 9 { valueStart += 1 }
        while valueEnd > valueStart, line[valueEnd - 1] == 32 || line[valueEnd - 1] == 9 { valueEnd -= 1 }
        self.name = String(decoding: name, as: UTF8.self)
        self.value = String(decoding: UnsafeRawBufferPointer(rebasing: line[valueStart..<valueEnd]), as: UTF8.self)
    }

    /// RFC 9110 `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: true
        default: false
        }
    }

    /// A parameter of the value, such as `name` of `form-data; name="title"` (quotes removed, `\"` undone).
    public func parameter(_ key: String) -> String? {
        for piece in Self.split(value).dropFirst() {
            guard let equals = piece.unicodeScalars.firstIndex(of: "=") else { continue }
            let name = String(piece.unicodeScalars[..<equals]).trimmingSpaces
            guard name.lowercased() == key.lowercased() else { continue }
            var text = String(piece.unicodeScalars[piece.unicodeScalars.index(after: equals)...]).trimmingSpaces
            if text.unicodeScalars.count >= 2, text.unicodeScalars.first == "\"", text.unicodeScalars.last == "\"" {
                let inner = text.unicodeScalars.dropFirst().dropLast()
                var unescaped = String.UnicodeScalarView()
                var escaping = false
                for scalar in inner {
                    if !escaping, scalar == "\\" { escaping = true; continue }
                    escaping = false
                    unescaped.append(scalar)
                }
                text = String(unescaped)
            }
            return text
        }
        return nil
    }

    /// `;`-separated pieces, a `;` inside quotes kept.
    static func split(_ value: String) -> [String] {
        var pieces: [String] = []
        var current = String.UnicodeScalarView()
        var quoted = false
        var escaping = false
        for scalar in value.unicodeScalars {
            if escaping {
                escaping = false
            } else if quoted, scalar == "\\" {
                escaping = true
            } else if scalar == "\"" {
                quoted.toggle()
            } else if scalar == ";", !quoted {
                pieces.append(String(current))
                current = String.UnicodeScalarView()
                continue
            }
            current.append(scalar)
        }
        pieces.append(String(current))
        return pieces
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}

/// Why a multipart body was refused; the text names what is wrong, for a 400 answer.
public enum MultipartError: Error, Equatable, CustomStringConvertible {
    case badBoundary(String)
    case malformed(String)
    case headersTooLong
    case tooManyParts(Int)
    case truncated

    public var description: String {
        switch self {
        case .badBoundary(let reason): "the multipart boundary is not usable: \(reason)"
        case .malformed(let reason): "the multipart body is malformed: \(reason)"
        case .headersTooLong: "a part's headers are longer than \(MultipartParser.maxHeaderBytes) bytes"
        case .tooManyParts(let limit): "the form has more than \(limit) parts"
        case .truncated: "the multipart body ends before its closing boundary"
        }
    }
}
