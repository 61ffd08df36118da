import Diary
import Foundation
import HTTPTypes
import Hummingbird
import Multipart
import Persistence
import Services

/// `/api/v1/uploads`: resumable uploads by the tus 1.0 protocol (core, creation, termination, expiration;
/// https://tus.io/protocols/resumable-upload). A client announces a file with its length (`POST`), sends it in as
/// many `PATCH`es as its connection allows, each at the offset the server confirmed (`HEAD`), and the last byte
/// makes it a photo, as `POST /photos` would. `GET` (ours, not tus) tells the same as `HEAD` in JSON, with the photo
/// or the refusal. See `ResumableUploads` for where the bytes wait.
struct UploadsAPI {
    let uploads: ResumableUploads
    let photos: PhotoService
    let clock: Persistence.Clock

    static let version = "1.0.0"
    static let resumable = HTTPField.Name("Tus-Resumable")!
    static let tusVersion = HTTPField.Name("Tus-Version")!
    static let extensions = HTTPField.Name("Tus-Extension")!
    static let maxSize = HTTPField.Name("Tus-Max-Size")!
    static let length = HTTPField.Name("Upload-Length")!
    static let offset = HTTPField.Name("Upload-Offset")!
    static let metadata = HTTPField.Name("Upload-Metadata")!
    static let expires = HTTPField.Name("Upload-Expires")!
    /// Ours: on the last `PATCH` (and `HEAD` after it), the id of the photo the upload became.
    static let photo = HTTPField.Name("Saessak-Photo")!

    func register(on api: SecureRoutes) {
        api.on(.options, "uploads", .anyone) { _, _ in
            Response(status: .noContent, headers: [
                Self.resumable: Self.version, Self.tusVersion: Self.version,
                Self.extensions: "creation,termination,expiration", Self.maxSize: String(uploads.maxLength),
            ])
        }
        api.post("uploads", .editor) { request, context in
            try Self.checkVersion(request)
            let member = try context.member()
            let (upload, isNew) = try uploads.announce(
                family: member.familyID, user: try context.user(), length: try Self.uploadLength(request),
                fileName: try Self.fileName(request), key: try CollectionRoutes<Entry, Entry, EntryPayload, EntryResource>.key(request),
                now: clock.now())
            var headers = headers(upload)
            headers[.location] = "/api/v1/uploads/\(upload.id)"
            return Response(status: isNew ? .created : .ok, headers: headers)
        }
        api.on(.head, "uploads/:upload", .editor) { request, context in
            let (upload, offset) = try status(request, context)
            var headers = headers(upload)
            headers[Self.offset] = String(offset)
            headers[Self.length] = String(upload.length)
            // A refusal answers as the last PATCH did (HEAD carries no body: GET tells why).
            return Response(status: upload.refusal.map { HTTPResponse.Status(code: $0.status) } ?? .ok, headers: headers)
        }
        api.get("uploads/:upload", .editor) { request, context in
            let (upload, offset) = try status(request, context)
            var photo: PhotoResource?
            if let id = upload.photoID {
                photo = PhotoResource(try await photos.store.get(family: try context.member().familyID, id: id))
            }
            var response = try JSONBody.response(
                UploadResource(
                    id: upload.id, length: upload.length, offset: offset, fileName: upload.fileName,
                    expiresAt: uploads.expiry(of: upload), photo: photo, refusal: upload.refusal))
            response.headers[.cacheControl] = "no-store"
            return response
        }
        api.on(.patch, "uploads/:upload", .editor) { request, context in
            try Self.checkVersion(request)
            guard request.headers[.contentType]?.lowercased() == "application/offset+octet-stream" else {
                throw Problem(status: .unsupportedMediaType, detail: "send the bytes as application/offset+octet-stream")
            }
            guard let text = request.headers[Self.offset], let offset = UploadHeaders.byteCount(text) else {
                throw Problem(status: .badRequest, detail: "Upload-Offset: give the offset the bytes start at", field: "Upload-Offset")
            }
            let (total, upload) = try await uploads.append(
                try Self.id(context), family: try context.member().familyID, user: try context.user(), offset: offset,
                body: request.body, now: clock.now())
            var headers = headers(upload)
            headers[Self.offset] = String(total)
            return Response(status: .noContent, headers: headers)
        }
        api.delete("uploads/:upload", .editor) { _, context in
            try uploads.delete(try Self.id(context), family: try context.member().familyID, user: try context.user(), now: clock.now())
            return Response(status: .noContent, headers: [Self.resumable: Self.version])
        }
    }

    private func status(_ request: Request, _ context: AppRequestContext) throws -> (ResumableUpload, Int) {
        try uploads.status(try Self.id(context), family: try context.member().familyID, user: try context.user(), now: clock.now())
    }

    private func headers(_ upload: ResumableUpload) -> HTTPFields {
        var headers: HTTPFields = [
            Self.resumable: Self.version, .cacheControl: "no-store",
            Self.expires: Self.httpDate(uploads.expiry(of: upload)),
        ]
        if let photo = upload.photoID { headers[Self.photo] = photo.description }
        return headers
    }

    private static func id(_ context: AppRequestContext) throws -> String {
        guard let id = context.parameters.get("upload"), ResumableUploads.isID(id) else {
            throw ResumableUploadError.notFound
        }
        return id
    }

    /// Every request but OPTIONS says which protocol version it speaks; we speak 1.0.0 only (412 otherwise).
    private static func checkVersion(_ request: Request) throws {
        guard request.headers[resumable] == version else {
            throw Problem(status: .preconditionFailed, detail: "Tus-Resumable: this server speaks tus \(version)", field: "Tus-Resumable")
        }
    }

    /// `Tue, 24 Nov 2026 01:12:13 GMT` (RFC 9110's date).
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    private static func uploadLength(_ request: Request) throws -> Int {
        guard let text = request.headers[length] else {
            throw Problem(status: .badRequest, detail: "Upload-Length: give the file's size in bytes (deferred lengths are not taken)", field: "Upload-Length")
        }
        guard let value = UploadHeaders.byteCount(text) else {
            throw Problem(status: .badRequest, detail: "Upload-Length: must be a number of bytes", field: "Upload-Length")
        }
        return value
    }

    private static func fileName(_ request: Request) throws -> String? {
        guard let header = request.headers[metadata] else { return nil }
        do { return try UploadHeaders.fileName(header) } catch {
            throw Problem(status: .badRequest, detail: error.description, field: "Upload-Metadata")
        }
    }
}

/// `GET /uploads/{id}`.
struct UploadResource: Encodable {
    let id: String
    let length: Int
    let offset: Int
    let fileName: String?
    let expiresAt: Date
    let photo: PhotoResource?
    let refusal: ResumableUpload.Refusal?
}
