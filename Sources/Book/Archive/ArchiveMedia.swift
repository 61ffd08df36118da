import Diary
import Foundation
import Photos

/// Where the archive gets a photo's files: its web copy, its original, and a clip's web rendition.
public protocol ArchiveMediaSource: Sendable {
    /// The web-sized copy (JPEG, at most 1600 px, no metadata); nil when the original is not in the store.
    func webCopy(of photo: Photo) async throws -> Data?
    /// The original as it was uploaded; nil when it is not in the store.
    func original(of photo: Photo) async throws -> LocalOriginal?
    /// What a browser plays of a clip, with its file name extension: the web rendition, or the original when it
    /// plays as it is. Nil while the rendition is not made (or could not be).
    func playable(of clip: Photo) async throws -> (file: LocalOriginal, extension: String)?
}

/// The photo store's files: the thumbnails the server made (made now when missing, not kept), the originals, the
/// renditions (copied to a local file first when they are in object storage).
public struct StoredArchiveMedia: ArchiveMediaSource {
    let storage: any PhotoStorage

    public init(storage: any PhotoStorage) { self.storage = storage }

    public func webCopy(of photo: Photo) async throws -> Data? {
        if let stored = try await storage.openThumbnail(sha256: photo.sha256, size: .large) { return try await stored.readAll() }
        guard let original = try await original(of: photo) else { return nil }
        let scratch = storage.scratchFile(extension: "jpg")
        defer { try? FileManager.default.removeItem(at: scratch) }
        return try Thumbnailer.thumbnail(of: photo, original: original.url, size: .large, scratch: scratch)
    }

    public func original(of photo: Photo) async throws -> LocalOriginal? {
        guard let format = MediaFormat(mimeType: photo.mimeType) else { return nil }
        return try await storage.localOriginal(sha256: photo.sha256, format: format)
    }

    public func playable(of clip: Photo) async throws -> (file: LocalOriginal, extension: String)? {
        guard let video = clip.video, let format = MediaFormat(mimeType: clip.mimeType) else { return nil }
        switch video.rendition {
        case .none:
            return try await original(of: clip).map { ($0, format.fileExtension) }
        case .ready:
            guard let stored = try await storage.openRendition(sha256: clip.sha256) else { return nil }
            let copy = storage.scratchFile(extension: "mp4")
            guard FileManager.default.createFile(atPath: copy.path, contents: nil) else { throw PhotoError.internal("cannot write \(copy.path)") }
            let local = LocalOriginal(url: copy, temporary: true)
            let handle = try FileHandle(forWritingTo: copy)
            defer { try? handle.close() }
            if stored.byteCount > 0 {
                try await stored.read(0...(stored.byteCount - 1), chunkSize: 1 << 20) { try handle.write(contentsOf: $0) }
            }
            return (local, "mp4")
        case .pending, .failed:
            return nil
        }
    }
}
