import Diary
import Foundation
import Hummingbird
import NIOCore
import Persistence
import Photos
import Services

/// The photo routes: uploads (streamed to disk), the entry's photo list, a child's profile photo, and the files.
struct PhotosAPI {
    let service: PhotoService
    let entries: any EntryStore
    let children: any ChildStore
    let clock: Clock

    /// An entry's photos as the API gives them, each with the entry's children's ages on the day it was taken.
    private func resources(_ photos: [Photo], family: FamilyID, entry id: EntryID) async throws -> [PhotoResource] {
        let entry = try await entries.get(family: family, id: id)
        let children = try await children.byID(family: family)
        return photos.map { PhotoResource($0, in: entry, children: children) }
    }

    func register(on api: SecureRoutes) {
        api.post("photos", .editor) { request, context in
            let family = try context.member().familyID
            let photos = try await upload(request, context: context, family: family, entry: nil)
            return try JSONBody.response(ListResponse(items: photos.map { PhotoResource($0) }, next: nil), status: .created)
        }
        api.post("entries/:id/photos", .editor) { request, context in
            let family = try context.member().familyID
            let entry = try context.id(of: "entry") as EntryID
            let photos = try await upload(request, context: context, family: family, entry: entry)
            await context.record(.created, .photo, id: entry.description, detail: "\(photos.count)")
            return try JSONBody.response(
                ListResponse(items: try await resources(photos, family: family, entry: entry), next: nil), status: .created)
        }
        api.get("entries/:id/photos", .viewer, statements: 20) { _, context in
            let family = try context.member().familyID
            let entry = try context.id(of: "entry") as EntryID
            let photos = try await service.store.photos(family: family, entry: entry)
            return try JSONBody.response(ListResponse(items: try await resources(photos, family: family, entry: entry), next: nil))
        }
        api.put("entries/:id/photos", .editor) { request, context in
            let family = try context.member().familyID
            let entry = try context.id(of: "entry") as EntryID
            let body = try await request.decode(as: PhotoOrder.self, context: context)
            let (photos, released) = try await service.store.setPhotos(body.photoIds, family: family, entry: entry, by: context.userID)
            await service.release(released)
            await context.record(.edited, .photo, id: entry.description, detail: "order")
            return try JSONBody.response(ListResponse(items: try await resources(photos, family: family, entry: entry), next: nil))
        }
        api.delete("entries/:id/photos/:photo", .editor) { _, context in
            let family = try context.member().familyID
            let trashed = try await service.store.remove(
                try context.id("photo", of: "photo") as PhotoID, family: family, entry: try context.id(of: "entry") as EntryID,
                by: context.userID)
            return await TrashAPI.deleted(trashed, context)
        }
        api.put("children/:id/photo", .editor) { request, context in
            let family = try context.member().familyID
            let child = try context.id(of: "child") as ChildID
            let body = try await request.decode(as: ProfilePhoto.self, context: context)
            await service.release(try await service.store.setProfilePhoto(body.photoId, family: family, child: child))
            await context.record(.edited, .child, id: child.description, detail: "photo")
            if let photoID = body.photoId {
                _ = try await service.thumbnail(try await service.store.get(family: family, id: photoID), size: .square)
            }
            return Response(status: .noContent)
        }
        api.get("children/:id/photo", .viewer) { request, context in
            let family = try context.member().familyID
            guard let photo = try await service.store.profilePhoto(family: family, child: try context.id(of: "child") as ChildID) else {
                throw Problem(status: .notFound, detail: "this child has no profile photo")
            }
            return try await FileResponse.serve(
                try await service.thumbnail(photo, size: .square), contentType: Thumbnailer.format.mimeType,
                etag: "\(photo.sha256)-square", request: request)
        }
        api.get("photos/:id", .viewer, statements: 8) { _, context in
            let photo = try await Self.shown(service, context)
            return try JSONBody.response(PhotoResource(photo))
        }
        api.get("photos/:id/original", .viewer) { request, context in
            let photo = try await Self.shown(service, context)
            guard let file = try await service.original(photo) else { throw Problem(status: .notFound, detail: "the photo file is missing") }
            return try await FileResponse.serve(file, contentType: photo.mimeType, etag: photo.sha256, request: request)
        }
        api.get("photos/:id/video", .viewer) { request, context in
            let photo = try await Self.shown(service, context)
            return try await Self.video(photo, service: service, etag: photo.sha256, request: request)
        }
        api.get("photos/:id/thumbnail", .viewer) { request, context in
            let photo = try await Self.shown(service, context)
            let sizeName = request.uri.queryParameters["size"].map(String.init) ?? "small"
            guard let size = ThumbnailSize(rawValue: sizeName), size != .square else {
                throw Problem(status: .badRequest, detail: "size: '\(sizeName)' is not small or large", field: "size")
            }
            return try await FileResponse.serve(
                try await service.thumbnail(photo, size: size), contentType: Thumbnailer.format.mimeType,
                etag: "\(photo.sha256)-\(size.rawValue)", request: request)
        }
    }

    /// What browsers play of a clip (`PhotoService.playable`), with ranges for seeking; 404 for a photo, 409 while
    /// its web rendition is being made or when it could not be.
    /// A clip as a browser plays it; `shared` (a share link) never sends the original (`PhotoService.sharedPlayable`).
    /// The photo the path names, for a member who may open it by its id: owners and editors any of the family's; a
    /// viewer only one the diary shows (an entry, an event, a profile), never one an edit took out, the trash holds or
    /// an editor uploaded and has not placed yet — 404, as for another family's (issue 66).
    static func shown(_ service: PhotoService, _ context: AppRequestContext) async throws -> Photo {
        let member = try context.member()
        let id: PhotoID = try context.id(of: "photo")
        let photo = try await service.store.get(family: member.familyID, id: id)
        if !member.role.includes(.editor), try await !service.store.isInDiary(family: member.familyID, id: id) {
            throw StoreError.notFound(kind: "photo", id: id.description)
        }
        return photo
    }

    static func video(
        _ photo: Photo, service: PhotoService, etag: String, caching: FileResponse.Caching = .member, shared: Bool = false,
        request: Request
    ) async throws -> Response {
        guard let video = photo.video else { throw Problem(status: .notFound, detail: "photo \(photo.id) is not a video") }
        let playable = shared ? try await service.sharedPlayable(photo) : try await service.playable(photo)
        guard let (file, contentType) = playable else {
            switch video.rendition {
            case .failed:
                throw Problem(status: .conflict, detail: "the web version of this video could not be made; its original can be downloaded")
            default:
                throw Problem(
                    status: .conflict, detail: "the web version of this video is being made (\(video.renditionProgress ?? 0)%)", retryAfter: 5)
            }
        }
        // The rendition is another file than the original: another tag.
        return try await FileResponse.serve(
            file, contentType: contentType, etag: video.rendition == .ready ? "\(etag)-web" : etag, caching: caching, request: request)
    }

    private func upload(_ request: Request, context: AppRequestContext, family: FamilyID, entry: EntryID?) async throws -> [Photo] {
        let form = try await MultipartForm.read(request, service: service)
        guard !form.uploads.isEmpty else {
            throw Problem(status: .unprocessableContent, detail: "the request carries no file part", field: "file")
        }
        return try await service.ingest(form.uploads, family: family, entry: entry, now: clock.now())
    }
}

struct PhotoOrder: Decodable {
    let photoIds: [PhotoID]
}

struct ProfilePhoto: Decodable {
    let photoId: PhotoID?
}

