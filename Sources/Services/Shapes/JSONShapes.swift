import Foundation

/// The shapes the app shows its data in — the JSON API's answers and the command line's `--json` alike: one type
/// per record (`EntryResource`, `ChildResource`, …), made from domain values and encoded the same way everywhere.
public enum JSONShapes {
    /// ISO 8601 dates, sorted keys.
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// A shape as JSON text (the command line prints it).
    public static func text(_ value: some Encodable) throws -> String { String(decoding: try encoder.encode(value), as: UTF8.self) }
}

/// `{"items": [...], "next": <cursor or null>}`: the shape of every list.
public struct ListResponse<Item: Encodable>: Encodable {
    public let items: [Item]
    public let next: String?

    public init(items: [Item], next: String?) {
        self.items = items
        self.next = next
    }

    enum CodingKeys: CodingKey { case items, next }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(next, forKey: .next)  // null on the last page, never left out
    }
}
