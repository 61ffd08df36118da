import Foundation

/// A typed UUID: a `ChildID` can never be passed where an `EntryID` is wanted.
/// Its text form is the lowercase UUID, the same in JSON, SQL and URLs.
public struct Identifier<Owner>: Hashable, Sendable, Codable, CustomStringConvertible {
    public let uuid: UUID

    public init(_ uuid: UUID = UUID()) { self.uuid = uuid }

    /// Parses a UUID in any letter case; nil for anything else.
    public init?(_ text: some StringProtocol) {
        guard let uuid = UUIDText.parse(String(text)) else { return nil }
        self.uuid = uuid
    }

    public var description: String { UUIDText.lowercase(uuid) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = Identifier(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a UUID")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// A UUID's text, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, read and written byte by byte: every row a page shows
/// carries a few, and Foundation's `UUID(uuidString:)` (`sscanf` on Linux) and `uuidString.lowercased()` were 3 %
/// of a busy timeline's time (issue 35). The form accepted is Foundation's, which `IdentifierTests` holds it to.
enum UUIDText {
    /// Into the UUID's own 16 bytes, without an array on the heap: a page reads a few hundred identifiers back from
    /// the database (each one's array was 2 % of a busy timeline's instructions, with `lowercase`'s).
    static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { bytes -> UUID? in
            guard bytes.count == 36 else { return nil }
            var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let parsed = withUnsafeMutableBytes(of: &uuid) { value -> Bool in
                var index = 0, written = 0
                while index < 36 {
                    if index == 8 || index == 13 || index == 18 || index == 23 {
                        guard bytes[index] == UInt8(ascii: "-") else { return false }
                        index += 1
                        continue
                    }
                    guard let high = hexDigit(bytes[index]), let low = hexDigit(bytes[index + 1]) else { return false }
                    value[written] = high << 4 | low
                    written += 1
                    index += 2
                }
                return true
            }
            return parsed ? UUID(uuid: uuid) : nil
        }
    }

    static func lowercase(_ uuid: UUID) -> String {
        withUnsafeBytes(of: uuid.uuid) { value in
            String(unsafeUninitializedCapacity: 36) { text in
                var written = 0
                for (index, byte) in value.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[written] = UInt8(ascii: "-")
                        written += 1
                    }
                    text[written] = lowercaseDigit(byte >> 4)
                    text[written + 1] = lowercaseDigit(byte & 0x0F)
                    written += 2
                }
                return written
            }
        }
    }

    private static func lowercaseDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

public typealias FamilyID = Identifier<Family>
public typealias UserID = Identifier<User>
public typealias APITokenID = Identifier<APIToken>
public typealias ChildID = Identifier<Child>
public typealias EntryID = Identifier<Entry>
public typealias MemoID = Identifier<Memo>
public typealias EventID = Identifier<Event>
public typealias AnniversaryID = Identifier<Anniversary>
public typealias TagID = Identifier<Tag>
public typealias PhotoID = Identifier<Photo>
public typealias MeasurementID = Identifier<GrowthMeasurement>
public typealias CommentID = Identifier<Comment>
