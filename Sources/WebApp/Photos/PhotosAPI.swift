import Diary
import DiaryStore
import Foundation
import Hummingbird
import MultipartKit
import NIOCore
import Photos

/// The photo routes: uploads (streamed to disk), the entry's photo list, a child's profile photo, and the files.
struct PhotosAPI {
    let service: PhotoService
    let clock: Clock

    func register(on api: SecureRoutes) {
        api.post("photos", .editor) { request, context in
            let family = try context.member().familyID
            let photos = try await upload(request, context: context, family: family, entry: nil)
            return try JSONBody.response(ListResponse(items: photos.map(PhotoResource.init), next: nil), status: .created)
        }
        api.post("entries/:id/photos", .editor) { request, context in
            let family = try context.member().familyID
            let entry = try context.id(of: "entry") as EntryID
            let photos = try await upload(request, context: context, family: family, entry: entry)
            return try JSONBody.response(ListResponse(items: photos.map(PhotoResource.init), next: nil), status: .created)
        }
        api.get("entries/:id/photos", .viewer) { _, context in
            let photos = try await service.store.photos(family: try context.member().familyID, entry: try context.id(of: "entry") as EntryID)
            return try JSONBody.response(ListResponse(items: photos.map(PhotoResource.init), next: nil))
        }
        api.put("entries/:id/photos", .editor) { request, context in
            let family = try context.member().familyID
            let entry = try context.id(of: "entry") as EntryID
            let body = try await JSONBody.decode(PhotoOrder.self, from: request, context: context)
            let (photos, released) = try await service.store.setPhotos(body.photoIds, family: family, entry: entry)
            service.release(released)
            return try JSONBody.response(ListResponse(items: photos.map(PhotoResource.init), next: nil))
        }
        api.delete("entries/:id/photos/:photo", .editor) { _, context in
            let family = try context.member().familyID
            let released = try await service.store.remove(
                try context.id("photo", of: "photo") as PhotoID, family: family, entry: try context.id(of: "entry") as EntryID)
            service.release(released)
            return Response(status: .noContent)
        }
        api.put("children/:id/photo", .editor) { request, context in
            let family = try context.member().familyID
            let child = try context.id(of: "child") as ChildID
            let body = try await JSONBody.decode(ProfilePhoto.self, from: request, context: context)
            service.release(try await service.store.setProfilePhoto(body.photoId, family: family, child: child))
            if let photoID = body.photoId {
                _ = try await service.thumbnailURL(try await service.store.get(family: family, id: photoID), size: .square)
            }
            return Response(status: .noContent)
        }
        api.get("children/:id/photo", .viewer) { request, context in
            let family = try context.member().familyID
            guard let photo = try await service.store.profilePhoto(family: family, child: try context.id(of: "child") as ChildID) else {
                throw Problem(status: .notFound, detail: "this child has no profile photo")
            }
            return try await FileResponse.serve(
                try await service.thumbnailURL(photo, size: .square), contentType: Thumbnailer.format.mimeType,
                etag: "\(photo.sha256)-square", request: request, context: context)
        }
        api.get("photos/:id", .viewer) { _, context in
            let photo = try await service.store.get(family: try context.member().familyID, id: try context.id(of: "photo") as PhotoID)
            return try JSONBody.response(PhotoResource(photo))
        }
        api.get("photos/:id/original", .viewer) { request, context in
            let photo = try await service.store.get(family: try context.member().familyID, id: try context.id(of: "photo") as PhotoID)
            guard let url = service.originalURL(photo) else { throw Problem(status: .internalServerError, detail: "unknown photo format") }
            return try await FileResponse.serve(url, contentType: photo.mimeType, etag: photo.sha256, request: request, context: context)
        }
        api.get("photos/:id/thumbnail", .viewer) { request, context in
            let photo = try await service.store.get(family: try context.member().familyID, id: try context.id(of: "photo") as PhotoID)
            let sizeName = request.uri.queryParameters["size"].map(String.init) ?? "small"
            guard let size = ThumbnailSize(rawValue: sizeName), size != .square else {
                throw Problem(status: .badRequest, detail: "size: '\(sizeName)' is not small or large", field: "size")
            }
            return try await FileResponse.serve(
                try await service.thumbnailURL(photo, size: size), contentType: Thumbnailer.format.mimeType,
                etag: "\(photo.sha256)-\(size.rawValue)", request: request, context: context)
        }
    }

    private func upload(_ request: Request, context: AppRequestContext, family: FamilyID, entry: EntryID?) async throws -> [Photo] {
        let form = try await MultipartForm.read(request, service: service)
        guard !form.uploads.isEmpty else {
            throw Problem(status: .unprocessableContent, detail: "the request carries no file part", field: "file")
        }
        return try await service.ingest(form.uploads, family: family, entry: entry, now: clock.now())
    }
}

/// A multipart/form-data body: every file part streamed to its own file as it arrives, and the (small) text fields.
struct MultipartForm {
    var uploads: [UploadWriter]
    /// The field each upload came in, in the same order.
    var uploadFields: [String]
    /// The file name the browser gave each upload (only its last component), in the same order.
    var uploadNames: [String]
    /// Text fields by name, each with its values in order.
    var fields: [String: [String]]

    /// All the text of a form's fields together (the longest entry body fits).
    static let maxFieldBytes = 1024 * 1024

    func field(_ name: String) -> String? { fields[name]?.first }

    static func read(_ request: Request, service: PhotoService) async throws -> MultipartForm {
        try await read(request, library: service.library, limits: service.limits, maxFiles: PhotoService.maxFilesPerRequest)
    }

    /// A form with at most `maxFiles` files of at most `limits.maxBytes` each, streamed to the library's incoming
    /// folder.
    static func read(_ request: Request, library: PhotoLibrary, limits: PhotoLimits, maxFiles: Int) async throws -> MultipartForm {
        guard let contentType = request.headers[.contentType], contentType.lowercased().hasPrefix("multipart/form-data"),
            let boundary = Self.boundary(contentType)
        else {
            throw Problem(status: .unsupportedMediaType, detail: "send the form as multipart/form-data")
        }
        let parser = MultipartParser(boundary: boundary)
        let state = UploadState(library: library, limits: limits)
        parser.onHeader = { name, value in state.header(name, value) }
        parser.onBody = { buffer in state.body(&buffer) }
        parser.onPartComplete = { state.partComplete() }
        do {
            for try await chunk in request.body {
                try parser.execute(chunk)
                if let failure = state.failure { throw failure }
                guard state.uploads.count <= maxFiles else {
                    throw Problem(status: .contentTooLarge, detail: "at most \(maxFiles) files at once")
                }
            }
        } catch let error as PhotoError {
            state.abandon()
            throw error
        } catch let error as Problem {
            state.abandon()
            throw error
        } catch {
            state.abandon()
            throw Problem(status: .badRequest, detail: "the multipart body could not be read")
        }
        return MultipartForm(uploads: state.uploads, uploadFields: state.uploadFields, uploadNames: state.uploadNames, fields: state.fields)
    }

    static func boundary(_ contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "boundary" {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }
}

/// The parts of one multipart upload as they stream in (callbacks of MultipartParser, on the request's task).
private final class UploadState {
    let library: PhotoLibrary
    let limits: PhotoLimits
    var uploads: [UploadWriter] = []
    var uploadFields: [String] = []
    var uploadNames: [String] = []
    var fields: [String: [String]] = [:]
    var failure: (any Error)?
    private var partIsFile = false
    private var partName: String?
    private var partFileName: String?
    private var text: [UInt8] = []
    private var textBytes = 0
    private var current: UploadWriter?

    init(library: PhotoLibrary, limits: PhotoLimits) {
        self.library = library
        self.limits = limits
    }

    func header(_ name: String, _ value: String) {
        guard name.lowercased() == "content-disposition" else { return }
        partIsFile = value.contains("filename=")
        partName = Self.parameter("name", in: value)
        partFileName = Self.parameter("filename", in: value).map { ($0 as NSString).lastPathComponent }
    }

    /// `name="title"` of `form-data; name="title"` (browsers escape a quote in a name as %22).
    private static func parameter(_ key: String, in value: String) -> String? {
        for piece in value.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == key { return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        }
        return nil
    }

    func body(_ buffer: inout ByteBuffer) {
        guard failure == nil else { return }
        guard partIsFile else {
            textBytes += buffer.readableBytes
            if textBytes > MultipartForm.maxFieldBytes {
                failure = Problem(status: .contentTooLarge, detail: "the form's text is longer than \(MultipartForm.maxFieldBytes) bytes")
            } else if partName != nil {
                text += buffer.readableBytesView
            }
            return
        }
        // A file input left empty still sends a part, with no bytes.
        guard buffer.readableBytes > 0 || current != nil else { return }
        do {
            if current == nil {
                let writer = try library.incoming(limits: limits)
                uploads.append(writer)
                uploadFields.append(partName ?? "")
                uploadNames.append(partFileName ?? "")
                current = writer
            }
            try buffer.withUnsafeReadableBytes { bytes in try current!.write(bytes) }
        } catch {
            failure = error
        }
    }

    func partComplete() {
        if !partIsFile, let partName {
            fields[partName, default: []].append(String(decoding: text, as: UTF8.self))
        }
        current = nil
        partIsFile = false
        partName = nil
        text = []
    }

    func abandon() { uploads.forEach { $0.abandon() } }
}

struct PhotoOrder: Decodable {
    let photoIds: [PhotoID]
}

struct ProfilePhoto: Decodable {
    let photoId: PhotoID?
}

/// A photo as the API shows it.
struct PhotoResource: Encodable {
    let id: PhotoID
    let mimeType: String
    let byteCount: Int
    let sha256: String
    let width: Int
    let height: Int
    let orientation: Int
    let takenAt: String?
    let latitude: Double?
    let longitude: Double?
    let cameraMake: String?
    let cameraModel: String?
    let thumbnailsReady: Bool
    let createdAt: Date

    init(_ photo: Photo) {
        id = photo.id
        mimeType = photo.mimeType
        byteCount = photo.byteCount
        sha256 = photo.sha256
        width = photo.width
        height = photo.height
        orientation = photo.orientation
        takenAt = photo.takenAt
        latitude = photo.latitude
        longitude = photo.longitude
        cameraMake = photo.cameraMake
        cameraModel = photo.cameraModel
        thumbnailsReady = photo.thumbnailsReady
        createdAt = photo.createdAt
    }
}
