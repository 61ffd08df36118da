import Diary
import Foundation
import Hummingbird
import KoreanCalendar
import Multipart
import Services

/// How every route reads a JSON body: the request context's decoder (`request.decode(as:context:)`), with the
/// API's rules — `application/json` only (415), at most `maxUploadSize` bytes (413, refused before reading a
/// declared oversize body), no key twice in one object (400), and well-formed JSON of the wrong shape is the
/// client's 422, not a 400.
public struct APIRequestDecoder: RequestDecoder {
    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        if let contentType = request.headers[.contentType],
            !contentType.lowercased().hasPrefix("application/json")
        {
            throw Problem(status: .unsupportedMediaType, detail: "send the body as application/json (got \(contentType))")
        }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > context.maxUploadSize {
            throw Problem.tooLarge(limit: context.maxUploadSize)
        }
        let data: Data
        do {
            data = Data(buffer: try await request.body.collect(upTo: context.maxUploadSize))
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw Problem.tooLarge(limit: context.maxUploadSize)
        }
        // `{"title": "a", "title": "b"}` is two bodies: Foundation reads the first, another reader the last (issue 33).
        if let key = JSONDuplicateKeys.first(in: data) {
            throw Problem(status: .badRequest, detail: "the key \"\(key)\" appears twice in one object: send each key once", field: key)
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            // Foundation reports some type errors (1.5 for an integer) without a path, like broken JSON.
            // Mapped here, to the field it names: `Request.decode` would make any DecodingError a bare 400.
            guard case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
                (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
            else { throw Problem(error) }
            throw Problem(status: .unprocessableContent, detail: "the body does not have the fields this route expects")
        }
    }
}

/// How JSON leaves: the shapes' one encoder (`JSONShapes.encoder`), also the request context's response encoder.
public struct APIResponseEncoder: ResponseEncoder {
    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        try JSONBody.response(value)
    }
}

/// Writing a JSON response with a status. Routes build their `Response` here rather than returning encodable
/// values: `SecureRoutes` handlers return one type, and many routes answer 201 or 204.
enum JSONBody {
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try JSONShapes.encoder.encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
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

    /// `true` or `false`, or nil when absent.
    func bool(_ name: String) throws -> Bool? {
        guard let text = string(name) else { return nil }
        switch text {
        case "true": return true
        case "false": return false
        default: throw Problem(status: .badRequest, detail: "\(name): '\(text)' is not true or false", field: name)
        }
    }

    func id<Owner>(_ name: String, as: Owner.Type = Owner.self) throws -> Identifier<Owner>? {
        guard let text = string(name) else { return nil }
        guard let id = Identifier<Owner>(text) else { throw Problem(status: .badRequest, detail: "\(name): '\(text)' is not an id", field: name) }
        return id
    }

    /// A `YYYY-MM-DD` date parameter, or nil when absent.
    func date(_ name: String) throws -> SolarDate? {
        guard let text = string(name) else { return nil }
        do { return try SolarDate(iso: text) } catch { throw Problem(status: .badRequest, detail: "\(name): \(error)", field: name) }
    }

    /// `child`, `tag`, and `year` or `month` (YYYY-MM): the entries a list or the timeline shows.
    func timelineFilter() throws -> TimelineFilter {
        let (child, year): (ChildID?, Int?) = (try id("child"), try int("year"))
        do {
            return try TimelineFilter(childID: child, tag: string("tag"), month: string("month"), year: year)
        } catch {
            throw Problem(status: .badRequest, detail: error.description, field: error.field)
        }
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
