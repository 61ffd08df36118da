import Foundation

/// A typed UUID: a `ChildID` can never be passed where an `EntryID` is wanted.
/// Its text form is the lowercase UUID, the same in JSON, SQL and URLs.
public struct Identifier<Owner>: Hashable, Sendable, Codable, CustomStringConvertible {
    public let uuid: UUID

    public init(_ uuid: UUID = UUID()) { self.uuid = uuid }

    /// Parses a UUID in any letter case; nil for anything else.
    public init?(_ text: some StringProtocol) {
        guard let uuid = UUID(uuidString: String(text)) else { return nil }
        self.uuid = uuid
    }

    public var description: String { uuid.uuidString.lowercased() }

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
