import Logging

/// A log handler that writes nothing a reader's terminal or a log parser would take for something else: every
/// control character (CR and LF, which start a fake line; ESC, which colours or moves a terminal's cursor; the C1
/// controls; DEL), the Unicode line and paragraph separators and the bidirectional overrides are written as `\u{…}`
/// in the message and in every metadata value and key (issue 33: a request for `/%0d%0a…` wrote a line of its own).
/// It wraps the handler that writes (standard error's, in `saessak`).
public struct EscapingLogHandler: LogHandler {
    private var inner: any LogHandler

    public init(_ inner: any LogHandler) { self.inner = inner }

    public var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    public var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    public func log(event: LogEvent) {
        var event = event
        event.message = Logger.Message(stringLiteral: Self.escaped(event.message.description))
        event.metadata = event.metadata.map(Self.escaped)
        inner.log(event: event)
    }

    static func escaped(_ metadata: Logger.Metadata) -> Logger.Metadata {
        Dictionary(metadata.map { (escaped($0.key), escaped($0.value)) }, uniquingKeysWith: { first, _ in first })
    }

    static func escaped(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let text): .string(escaped(text))
        case .stringConvertible(let convertible): .string(escaped(convertible.description))
        case .array(let values): .array(values.map(escaped))
        case .dictionary(let values): .dictionary(escaped(values))
        }
    }

    /// The text with every character that could forge or hide a line written as `\u{XX}`.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }
}
