import Foundation

/// The request headers of a resumable upload (tus 1.0: `Upload-Length`, `Upload-Offset`, `Upload-Metadata`), read
/// from anyone's bytes: a value that is not what the protocol says is an `UploadHeaderError`, never a trap.
public enum UploadHeaders {
    /// A byte count: decimal digits only (no sign, no spaces), at most 19 of them, within `Int`.
    public static func byteCount(_ text: String) -> Int? {
        guard (1...19).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text)
    }

    /// `Upload-Metadata`: comma-separated pairs of a key and its base64 value (a key alone has an empty value).
    /// Keys are ASCII without spaces or commas, and unique.
    public static func metadata(_ header: String) throws(UploadHeaderError) -> [String: Data] {
        var pairs: [String: Data] = [:]
        for pair in header.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: " ", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), let key = parts.first, !key.isEmpty,
                key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }), pairs[String(key)] == nil
            else { throw .malformedMetadata }
            guard parts.count == 2 else {
                pairs[String(key)] = Data()
                continue
            }
            guard let value = Data(base64Encoded: String(parts[1])) else { throw .malformedMetadata }
            pairs[String(key)] = value
        }
        return pairs
    }

    /// The `filename` of `Upload-Metadata`: UTF-8, its last path component only, 1–255 bytes, no control
    /// characters; nil when the header names none.
    public static func fileName(_ header: String) throws(UploadHeaderError) -> String? {
        guard let value = try metadata(header)["filename"] else { return nil }
        guard let text = String(data: value, encoding: .utf8) else { throw .badFileName }
        let last = text.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? ""
        guard !last.isEmpty, last != ".", last != "..", last.utf8.count <= 255,
            !last.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw .badFileName }
        return last
    }
}

public enum UploadHeaderError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformedMetadata
    case badFileName

    public var description: String {
        switch self {
        case .malformedMetadata: "Upload-Metadata: pairs of a key and a base64 value, separated by commas"
        case .badFileName: "Upload-Metadata: filename must be a file's name (UTF-8, at most 255 bytes)"
        }
    }
}
