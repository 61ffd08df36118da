import Diary
import Files
import Foundation
import Hummingbird
import Persistence
import Services
import KoreanCalendar
import Photos

/// An RFC 9457 problem detail: every error the API returns has this shape and `application/problem+json`.
/// `field`, when present, names the request field at fault (`birthDate`, `place.latitude`, `cursor`).
struct Problem: Error, HTTPResponseError, Encodable {
    let status: HTTPResponse.Status
    let detail: String
    var field: String?
    var headers: HTTPFields = [:]

    init(status: HTTPResponse.Status, detail: String, field: String? = nil) {
        self.status = status
        self.detail = detail
        self.field = field
    }

    /// 429 or 503 with `Retry-After`.
    init(status: HTTPResponse.Status, detail: String, retryAfter seconds: Int) {
        self.init(status: status, detail: detail)
        headers[.retryAfter] = String(seconds)
    }

    static let unauthorized: Problem = {
        var problem = Problem(status: .unauthorized, detail: "sign in, or send an API token as 'Authorization: Bearer <token>'")
        problem.headers[.wwwAuthenticate] = "Bearer realm=\"saessak\""
        return problem
    }()

    /// 413, closing the connection: a client still sending the rest of a huge body learns at once.
    static func tooLarge(limit: Int) -> Problem {
        var problem = Problem(status: .contentTooLarge, detail: "the request body is larger than \(limit / 1024) KiB")
        problem.headers[.connection] = "close"
        return problem
    }

    enum CodingKeys: String, CodingKey { case type, title, status, detail, field }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("about:blank", forKey: .type)
        try container.encode(status.reasonPhrase, forKey: .title)
        try container.encode(status.code, forKey: .status)
        try container.encode(detail, forKey: .detail)
        try container.encodeIfPresent(field, forKey: .field)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = try JSONShapes.encoder.encode(self)
        var headers = headers
        headers[.contentType] = "application/problem+json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The one place where an error becomes an HTTP status.
    init(_ error: any Error) {
        switch error {
        case let problem as Problem:
            self = problem
        case let error as ValidationError:
            self.init(status: .unprocessableContent, detail: error.description, field: error.field)
        case let error as CalendarError:
            self.init(status: .unprocessableContent, detail: error.description)
        case let error as DecodingError:
            self = Problem.decoding(error)
        case let error as ResumableUploadError:
            switch error {
            case .notFound: self.init(status: .notFound, detail: "no such upload of yours (it may have expired: start it again)")
            case .offsetMismatch(let stored):
                self.init(status: .conflict, detail: "Upload-Offset: the server has \(stored) bytes of this upload", field: "Upload-Offset")
            case .busy: self.init(status: .conflict, detail: "another request is sending this upload just now: try again shortly")
            case .tooMany(let count): self.init(status: .tooManyRequests, detail: "at most \(count) unfinished uploads at once: finish or delete some")
            case .tooLong(let limit):
                self.init(
                    status: .contentTooLarge, detail: "Upload-Length: larger than the \(ImageInspector.megabytes(limit)) the server takes",
                    field: "Upload-Length")
            case .pastLength: self.init(status: .badRequest, detail: "the body goes past Upload-Length", field: "Upload-Offset")
            case .refused(let refusal): self.init(status: HTTPResponse.Status(code: refusal.status), detail: refusal.detail)
            }
        case let error as PhotoError:
            switch error {
            case .unsupported, .noVideoTools, .tooLarge, .corrupt, .corruptVideo:
                self.init(status: HTTPResponse.Status(code: error.refusalStatus ?? 422), detail: error.description)
            case .internal: self.init(status: .internalServerError, detail: "the server could not store the photo")
            case .unavailable: self.init(status: .serviceUnavailable, detail: "the photo store is unavailable: try again shortly", retryAfter: 5)
            }
        case let error as StoreError:
            switch error {
            case .notFound: self.init(status: .notFound, detail: error.description)
            case .unknownReference(let field, _): self.init(status: .unprocessableContent, detail: error.description, field: field)
            case .conflict(let field, _): self.init(status: .conflict, detail: error.description, field: field)
            case .familyNeeded: self.init(status: .conflict, detail: error.description)
            case .unreadable: self.init(status: .internalServerError, detail: "the server could not read stored data")
            case .unavailable: self.init(status: .serviceUnavailable, detail: "the database is unavailable: try again shortly", retryAfter: 5)
            case .changed: self.init(status: .preconditionFailed, detail: error.description, field: "If-Match")
            }
        case is CancellationError:
            // The client went (or the server is stopping): nobody reads this answer, and it is no failure of ours.
            self.init(status: HTTPResponse.Status(code: 499, reasonPhrase: "Client Closed Request"), detail: "the request was given up")
        case let error as StorageFull:
            self.init(status: Self.insufficientStorage, detail: error.description)
        case let error where Self.isOutOfSpace(error):
            self.init(status: Self.insufficientStorage, detail: StorageFull("the file").description)
        case let error as any HTTPResponseError:
            self.init(
                status: error.status,
                detail: error.status == .contentTooLarge ? "the request body is too large" : error.status.reasonPhrase)
        default:
            self.init(status: .internalServerError, detail: "the server failed; the error was logged")
        }
    }

    /// 507 (RFC 4918), which swift-http-types does not name.
    static let insufficientStorage = HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")

    /// A file write that found the disk full, however the layer below named it (a POSIX call's `ENOSPC`,
    /// Foundation's out-of-space error).
    static func isOutOfSpace(_ error: any Error) -> Bool {
        if case FileError.system(_, let code) = error { return code == ENOSPC }
        let bridged = error as NSError
        if bridged.domain == NSPOSIXErrorDomain { return bridged.code == Int(ENOSPC) }
        if bridged.domain == NSCocoaErrorDomain { return bridged.code == CocoaError.fileWriteOutOfSpace.rawValue }
        return false
    }

    /// Malformed JSON is 400; well-formed JSON with a wrong or missing field is 422 naming the field.
    private static func decoding(_ error: DecodingError) -> Problem {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
                .replacingOccurrences(of: ".[", with: "[").trimmingCharacters(in: CharacterSet(charactersIn: "."))
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return Problem(status: .badRequest, detail: "the body is not valid JSON")
        case .dataCorrupted(let context):
            let field = path(context.codingPath)
            return Problem(status: .unprocessableContent, detail: "\(field): \(context.debugDescription)", field: field)
        case .keyNotFound(let key, let context):
            let field = path(context.codingPath + [key])
            return Problem(status: .unprocessableContent, detail: "\(field): is required", field: field)
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let field = path(context.codingPath)
            if field.isEmpty { return Problem(status: .badRequest, detail: "the body must be a JSON object") }
            return Problem(status: .unprocessableContent, detail: "\(field): expected \(jsonName(of: type))", field: field)
        @unknown default:
            return Problem(status: .badRequest, detail: "the body could not be read")
        }
    }

    private static func jsonName(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Double.Type: "a number"
        case is [Any].Type: "an array"
        default: "a \(type)".contains("Array") ? "an array" : "an object"
        }
    }
}

/// Turns every error below it into a problem response; 5xx causes are logged (without request data).
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let problem = Problem(error)
            if problem.status.code >= 500 {
                context.logger.error("request failed", metadata: ["error": "\(String(reflecting: type(of: error))): \(error)"])
            }
            return try problem.response(from: request, context: context)
        }
    }
}
