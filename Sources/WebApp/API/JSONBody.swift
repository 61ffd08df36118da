import Diary
import Foundation
import Hummingbird

/// Reading JSON requests and writing JSON responses the same way on every route.
public enum JSONBody {
    /// Decodes a JSON request body of at most `context.maxUploadSize` bytes.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, context: AppRequestContext) async throws -> T {
        if let contentType = request.headers[.contentType],
            !contentType.lowercased().hasPrefix("application/json")
        {
            throw Problem(status: .unsupportedMediaType, detail: "send the body as application/json (got \(contentType))")
        }
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        return try JSONDecoder().decode(T.self, from: Data(buffer: buffer))
    }

    /// The API's JSON conventions (ISO 8601 dates, sorted keys), also used by the CLI's `--json`.
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try encoder.encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
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

/// Query parameters, read with errors that name the parameter (400: the URL itself is wrong).
struct Query {
    let request: Request

    func string(_ name: String) -> String? {
        request.uri.queryParameters[Substring(name)].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
    }

    func int(_ name: String) throws -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text) else { throw Problem(status: .badRequest, detail: "\(name): '\(text)' is not a whole number", field: name) }
        return value
    }

    func id<Owner>(_ name: String, as: Owner.Type = Owner.self) throws -> Identifier<Owner>? {
        guard let text = string(name) else { return nil }
        guard let id = Identifier<Owner>(text) else { throw Problem(status: .badRequest, detail: "\(name): '\(text)' is not an id", field: name) }
        return id
    }

    /// `limit` and `cursor`, shared by every list.
    func paging() throws -> (cursor: PageCursor?, limit: Int) {
        do {
            return (try string("cursor").map { try PageCursor($0) }, try PageCursor.limit(try int("limit")))
        } catch let error as ValidationError {
            throw Problem(status: .badRequest, detail: error.description, field: error.field)
        }
    }
}
