import Foundation

/// One page of a list, and where the next page starts (nil on the last page).
public struct Page<Item: Sendable>: Sendable {
    public var items: [Item]
    public var next: PageCursor?

    public init(items: [Item], next: PageCursor?) {
        self.items = items
        self.next = next
    }

    /// Every item, fetching the largest pages one after the other (for scripts and exports, not for screens).
    public static func all(_ fetch: (_ after: PageCursor?, _ limit: Int) async throws -> Page<Item>) async throws -> [Item] {
        var items: [Item] = []
        var cursor: PageCursor?
        repeat {
            let page = try await fetch(cursor, PageCursor.limits.upperBound)
            items += page.items
            cursor = page.next
        } while cursor != nil
        return items
    }
}

/// An opaque keyset position: the sort key and ID of the last item seen. Paging by key, not offset,
/// keeps the thousandth page as fast as the first and stable while entries are added.
public struct PageCursor: Hashable, Sendable, CustomStringConvertible {
    public let sortKey: String
    public let id: String

    public init(sortKey: String, id: String) {
        self.sortKey = sortKey
        self.id = id
    }

    /// URL-safe text form (base64url of `sortKey \n id`).
    public var description: String {
        let raw = Array("\(sortKey)\n\(id)".utf8)
        return Base64URL.encode(raw)
    }

    public init(_ text: String) throws(ValidationError) {
        guard let bytes = Base64URL.decode(text), let raw = String(bytes: bytes, encoding: .utf8) else {
            throw ValidationError(field: "cursor", "is not a cursor this server gave out")
        }
        let parts = raw.split(separator: "\n", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[1].isEmpty else {
            throw ValidationError(field: "cursor", "is not a cursor this server gave out")
        }
        sortKey = String(parts[0])
        id = String(parts[1])
    }

    /// Page sizes a client may ask for.
    public static let limits = 1...200
    public static let defaultLimit = 50

    public static func limit(_ requested: Int?) throws(ValidationError) -> Int {
        guard let requested else { return defaultLimit }
        guard limits.contains(requested) else {
            throw ValidationError(field: "limit", "must be \(limits.lowerBound)–\(limits.upperBound) (got \(requested))")
        }
        return requested
    }
}

/// base64url without padding (RFC 4648 §5), so cursors travel in query strings untouched (and a page's notice in its
/// cookie).
public enum Base64URL {
    /// Three bytes to four letters of the URL-safe alphabet, by a table: Foundation's base64 and three passes of
    /// `replacingOccurrences` over it were 1.7 % of a busy timeline (the cursor of its next page; issue 35).
    public static func encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count * 4 + 2) / 3)
        func letters(_ group: UInt32, _ count: Int) {
            for shift in [18, 12, 6, 0].prefix(count) { text.append(alphabet[Int((group >> UInt32(shift)) & 63)]) }
        }
        var index = 0
        while bytes.count - index >= 3 {
            letters(UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]), 4)
            index += 3
        }
        switch bytes.count - index {
        case 1: letters(UInt32(bytes[index]) << 16, 2)
        case 2: letters(UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8, 3)
        default: break
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    public static func decode(_ text: String) -> [UInt8]? {
        guard text.utf8.allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "/") }) else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard).map(Array.init)
    }
}
