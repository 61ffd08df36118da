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
    static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { bytes -> UUID? in
            guard bytes.count == 36 else { return nil }
            var value: [UInt8] = []
            value.reserveCapacity(16)
            var index = 0
            while index < 36 {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard bytes[index] == UInt8(ascii: "-") else { return nil }
                    index += 1
                    continue
                }
                guard let high = hexDigit(bytes[index]), let low = hexDigit(bytes[index + 1]) else { return nil }
                value.append(high << 4 | low)
                index += 2
            }
            return UUID(uuid: (
                value[0], value[1], value[2], value[3], value[4], value[5], value[6], value[7],
                value[8], value[9], value[10], value[11], value[12], value[13], value[14], value[15]))
        }
    }

    static func lowercase(_ uuid: UUID) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        return withUnsafeBytes(of: uuid.uuid) { value in
            var text: [UInt8] = []
            text.reserveCapacity(36)
            for (index, byte) in value.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0F)])
            }
            return String(decoding: text, as: UTF8.self)
        }
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
