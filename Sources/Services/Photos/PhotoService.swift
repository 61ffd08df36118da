import Diary
import DiaryStore
import Foundation
import Logging
import NIOPosix
import Photos

/// Everything the server does with photo files, over the photo storage: taking uploads in (through `PhotoIntake`),
/// serving originals and thumbnails, deleting files whose last row went, and tidying up after a crash. Image work
/// runs on NIO's thread pool, off the request threads.
public struct PhotoService: Sendable {
    public let storage: any PhotoStorage
    public let store: any PhotoStore
    public let worker: ThumbnailWorker
    public let limits: PhotoLimits
    /// Held shared for the server's life; start-up's sweep of orphan files needs it alone.
    let writing: PhotoWriterLock
    /// Uploads never attached to an entry or a child are deleted after this long.
    static let unattachedLifetime: TimeInterval = 24 * 3600
    /// Photos one request may carry.
    public static let maxFilesPerRequest = 50

    public init(storage: any PhotoStorage, store: any PhotoStore, limits: PhotoLimits = .standard, logger: Logger) throws {
        try PhotoFolder.startImageLibrary()
        self.storage = storage
        writing = try storage.writerLock()
        self.store = store
        worker = ThumbnailWorker(storage: storage, store: store, logger: logger)
        self.limits = limits
    }

    /// The photos of a data folder (`photos/` beside the database).
    public init(dataFolder: URL, database: any DiaryEngine, limits: PhotoLimits = .standard, logger: Logger) throws {
        try self.init(storage: try PhotoFolder(dataFolder: dataFolder), store: database.stores.photos, limits: limits, logger: logger)
    }

    /// Start-up: drops old unattached uploads and — when no other process is writing photos (an import from the
    /// command line; see `PhotoWriterLock`) — uploads cut off by a crash and files no row refers to. Returns
    /// whether it could sweep the files.
    @discardableResult
    public func tidy() async throws -> Bool {
        await release(try await store.deleteUnattached(olderThan: Self.unattachedLifetime))
        let referenced = try await store.referencedHashes()
        return try await writing.whileAlone {
            storage.clearStaging()
            for file in try await storage.listOriginals() where !referenced.contains(file.sha256) {
                await storage.delete(sha256: file.sha256, format: file.format)
            }
        }
    }

    /// Checks, stores and records the photos of one request (staged by `storage.stage`), all or nothing: any bad
    /// file refuses the whole request and leaves nothing behind. The small thumbnail is made here (it also proves
    /// the file decodes); the large one by the worker.
    public func ingest(_ uploads: [UploadWriter], family: FamilyID, entry: EntryID?, now: Date) async throws -> [Photo] {
        defer { uploads.forEach { $0.abandon() } }
        let intake = try PhotoIntake(storage: storage, family: family, now: now, limits: limits)
        do {
            for upload in uploads {
                try await NIOThreadPool.singleton.runIfActive { _ = try intake.check(upload) }
            }
            try await intake.place()
            let stored = try await store.add(intake.photos, family: family, entry: entry)
            stored.filter { !$0.thumbnailsReady }.forEach(worker.enqueue)
            return stored
        } catch {
            await intake.settle(referenced: try? await store.referencedHashes())
            throw error
        }
    }

    /// Deletes the files whose last row is gone.
    public func release(_ files: [ReleasedPhotoFile]) async {
        for file in files {
            guard let format = ImageFormat(mimeType: file.mimeType) else { continue }
            await storage.delete(sha256: file.sha256, format: format)
        }
    }

    /// The stored original of a photo row.
    public func original(_ photo: Photo) async throws -> (any StoredPhotoFile)? {
        guard let format = ImageFormat(mimeType: photo.mimeType) else { return nil }
        return try await storage.openOriginal(sha256: photo.sha256, format: format)
    }

    /// A thumbnail, made now if the worker has not got to it yet (the square one is made when first asked for).
    public func thumbnail(_ photo: Photo, size: ThumbnailSize) async throws -> any StoredPhotoFile {
        if let stored = try await storage.openThumbnail(sha256: photo.sha256, size: size) { return stored }
        guard let format = ImageFormat(mimeType: photo.mimeType),
            let original = try await storage.originalFile(sha256: photo.sha256, format: format)
        else { throw PhotoError.internal("the original of photo \(photo.id) is missing") }
        let data = try await NIOThreadPool.singleton.runIfActive { try Thumbnailer.thumbnail(of: original, size: size) }
        try await storage.putThumbnail(data, sha256: photo.sha256, size: size)
        guard let stored = try await storage.openThumbnail(sha256: photo.sha256, size: size) else {
            throw PhotoError.internal("the thumbnail of photo \(photo.id) vanished")
        }
        return stored
    }
}
