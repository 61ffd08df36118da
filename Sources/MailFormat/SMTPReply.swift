/// One reply of an SMTP server (RFC 5321 §4.2): a three-digit code and one or more lines of text.
public struct SMTPReply: Equatable, Sendable {
    public let code: Int
    public let lines: [String]

    public init(code: Int, lines: [String]) {
        self.code = code
        self.lines = lines
    }

    public var isPositive: Bool { (200..<400).contains(code) }
    /// 4yz: try again later.
    public var isTransient: Bool { (400..<500).contains(code) }
    /// 5yz: this will not work however often it is tried.
    public var isPermanent: Bool { code >= 500 }

    /// The extensions an EHLO reply names, upper-cased, with their parameters: `["STARTTLS": [], "AUTH": ["PLAIN", "LOGIN"]]`.
    public var extensions: [String: [String]] {
        var found: [String: [String]] = [:]
        for line in lines.dropFirst() {
            let words = line.split(separator: " ").map { $0.uppercased() }
            guard let keyword = words.first else { continue }
            found[keyword] = Array(words.dropFirst())
        }
        return found
    }

    /// The reply as a log line: `451 4.3.0 try again later`.
    public var summary: String { "\(code) \(lines.joined(separator: " / "))" }
}

/// Why a server's bytes are not an SMTP reply. The connection is given up: a server that says this is not one to
/// trust with a message.
public enum SMTPReplyError: Error, Equatable, Sendable {
    case lineTooLong
    case tooManyLines
    case malformed(String)
}

/// Reads SMTP replies out of the bytes a server sends, whatever they are: lines end in CRLF (a bare LF is taken too),
/// a line is at most `maximumLineLength` bytes, a reply at most `maximumLines` lines, and each line of a multi-line
/// reply must carry the same code.
public struct SMTPReplyReader: Sendable {
    public static let maximumLineLength = 2048
    public static let maximumLines = 128

    private var pending: [UInt8] = []
    private var lines: [String] = []
    private var code: Int?

    public init() {}

    /// Takes the next bytes from the server.
    public mutating func append(_ bytes: some Sequence<UInt8>) throws(SMTPReplyError) {
        pending.append(contentsOf: bytes)
        if pending.count > Self.maximumLineLength * 4, !pending.contains(UInt8(ascii: "\n")) { throw .lineTooLong }
    }

    /// The next whole reply, or nil until more bytes arrive.
    public mutating func next() throws(SMTPReplyError) -> SMTPReply? {
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            var end = newline
            if end > pending.startIndex, pending[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            guard end - pending.startIndex <= Self.maximumLineLength else { throw .lineTooLong }
            let line = Array(pending[pending.startIndex..<end])
            pending.removeSubrange(pending.startIndex...newline)
            if let reply = try take(line) { return reply }
        }
        guard pending.count <= Self.maximumLineLength else { throw .lineTooLong }
        return nil
    }

    private mutating func take(_ line: [UInt8]) throws(SMTPReplyError) -> SMTPReply? {
        guard line.count >= 3, line[0..<3].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw .malformed("a reply line must start with a three-digit code")
        }
        let lineCode = line[0..<3].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        guard (200...599).contains(lineCode) else { throw .malformed("code \(lineCode) is not a reply code") }
        if let code, code != lineCode { throw .malformed("a multi-line reply changed its code from \(code) to \(lineCode)") }
        var isLast = true
        var text: ArraySlice<UInt8> = []
        if line.count > 3 {
            switch line[3] {
            case UInt8(ascii: "-"): isLast = false
            case UInt8(ascii: " "): break
            default: throw .malformed("a reply code must be followed by a space or a hyphen")
            }
            text = line[4...]
        }
        guard lines.count < Self.maximumLines else { throw .tooManyLines }
        code = lineCode
        lines.append(String(decoding: text, as: UTF8.self))
        guard isLast else { return nil }
        let reply = SMTPReply(code: lineCode, lines: lines)
        code = nil
        lines = []
        return reply
    }
}

/// A message made ready for SMTP's DATA: every line ends in CRLF, a line starting with a dot gets another (RFC 5321
/// §4.5.2), and the terminating `.` line follows.
public enum SMTPData {
    public static func stuffed(_ message: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(message.count + message.count / 64 + 8)
        var atLineStart = true
        var previous: UInt8 = 0
        for byte in message {
            if byte == UInt8(ascii: "\n"), previous != UInt8(ascii: "\r") { out.append(UInt8(ascii: "\r")) }
            if atLineStart, byte == UInt8(ascii: ".") { out.append(UInt8(ascii: ".")) }
            out.append(byte)
            atLineStart = byte == UInt8(ascii: "\n")
            previous = byte
        }
        if !atLineStart { out.append(contentsOf: Array("\r\n".utf8)) }
        out.append(contentsOf: Array(".\r\n".utf8))
        return out
    }
}
