import Diary
import Foundation
import Logging
import NIOPosix
import Persistence
import Photos

/// What one orphan sweep removed.
public struct PhotoSweep: Equatable, Sendable {
    public var originals = 0
    public var thumbnails = 0
    public var renditions = 0
    public var unfinishedUploads = 0

    public init() {}
}

/// Everything the server does with photo files, over the photo storage: taking uploads in (through `PhotoIntake`),
/// serving originals and thumbnails, deleting files whose last row went, and tidying up after a crash. Image work
/// runs on NIO's thread pool, off the request threads.
public struct PhotoService: Sendable {
    public let storage: any PhotoStorage
    public let store: any PhotoStore
    public let worker: ThumbnailWorker
    public let renditions: RenditionWorker
    public let limits: PhotoLimits
    /// Held shared for the server's life; start-up's sweep of orphan files needs it alone.
    let writing: PhotoWriterLock
    let logger: Logger
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
        renditions = RenditionWorker(storage: storage, store: store, logger: logger)
        self.logger = logger
        self.limits = limits
    }

    /// The photos of a data folder (`photos/` beside the database), or of `storage` (object storage).
    public init(
        dataFolder: URL, database: any DiaryEngine, storage: (any PhotoStorage)? = nil, limits: PhotoLimits = .standard, logger: Logger
    ) throws {
        try self.init(
            storage: try storage ?? PhotoFolder(dataFolder: dataFolder), store: database.stores.photos, limits: limits, logger: logger)
    }

    /// Start-up: drops old unattached uploads and — when no other process on this machine is writing photos (an
    /// import from the command line; see `PhotoWriterLock`) — uploads cut off by a crash and files no row refers to.
    /// Object storage is shared with other machines, whose uploads no local lock can see: there the sweep takes only
    /// what is older than `sharedGrace` (`sweep(olderThan:)`). Returns whether it could sweep the local files.
    @discardableResult
    public func tidy(now: Date = Date()) async throws -> Bool {
        await release(try await store.deleteUnattached(olderThan: Self.unattachedLifetime))
        if storage.isShared {
            // The store answered at start (checked when it was opened); a sweep it fails now is tried again within the
            // hour by `PhotoSweeper`, and must not keep the server from starting.
            do {
                try await sweep(olderThan: Self.sharedGrace, now: now)
            } catch {
                logger.warning("the start-up photo sweep failed; the hourly sweep tries again", metadata: ["error": "\(error)"])
            }
        }
        return try await writing.whileAlone {
            storage.clearStaging()
            if !storage.isShared { try await sweep(olderThan: 0, now: now) }
        }
    }

    /// How old a file no row refers to must be before the sweep of shared storage takes it: far longer than any
    /// upload or import takes between storing its files and committing their rows.
    public static let sharedGrace: TimeInterval = 3600

    /// The orphan sweep: deletes originals no row refers to that were stored before `now - age` (with their
    /// thumbnails), thumbnails whose original and rows are both gone, and unfinished multipart uploads begun before
    /// then. Safe beside running servers only with an age longer than any upload takes (`sharedGrace`), or, on the
    /// folder, under the writer lock held alone.
    @discardableResult
    public func sweep(olderThan age: TimeInterval, now: Date = Date()) async throws -> PhotoSweep {
        let cutoff = now.addingTimeInterval(-age)
        // Thumbnails first: an upload stores its original before its thumbnails, so a thumbnail listed here whose
        // upload is under way has its original in the next listing. Rows are read last: a row committed meanwhile
        // keeps its files.
        let thumbnails = try await storage.listThumbnails()
        let renditions = try await storage.listRenditions()
        let originals = try await storage.listOriginals()
        let referenced = try await store.referencedHashes()
        var result = PhotoSweep()
        for file in originals where !referenced.contains(file.sha256) && (age <= 0 || (file.storedAt ?? now) < cutoff) {
            await storage.delete(sha256: file.sha256, format: file.format)
            result.originals += 1
        }
        let stored = Set(originals.map(\.sha256))
        for sha in Set(thumbnails.map(\.sha256)) where !referenced.contains(sha) && !stored.contains(sha) {
            // `delete` takes every size; the format only names the original, which is gone.
            await storage.delete(sha256: sha, format: .jpeg)
            result.thumbnails += 1
        }
        for sha in Set(renditions.map(\.sha256)) where !referenced.contains(sha) && !stored.contains(sha) {
            await storage.delete(sha256: sha, format: .mp4)
            result.renditions += 1
        }
        result.unfinishedUploads = try await storage.abandonUnfinished(before: age <= 0 ? now : cutoff)
        return result
    }

    /// The sweep `saessak photos sweep` asks for: on object storage at once, in the folder only while no other
    /// process writes photos there (nil when one does).
    public func sweepNow(olderThan age: TimeInterval) async throws -> PhotoSweep? {
        if storage.isShared { return try await sweep(olderThan: age) }
        var result: PhotoSweep?
        try await writing.whileAlone { result = try await sweep(olderThan: age) }
        return result
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
            if stored.contains(where: { $0.video?.rendition == .pending }) { renditions.enqueue() }
            return stored
        } catch {
            await intake.settle(referenced: try? await store.referencedHashes())
            throw error
        }
    }

    /// Deletes the files whose last row is gone.
    public func release(_ files: [ReleasedPhotoFile]) async {
        for file in files {
            guard let format = MediaFormat(mimeType: file.mimeType) else { continue }
            await storage.delete(sha256: file.sha256, format: format)
        }
    }

    /// The stored original of a photo row.
    public func original(_ photo: Photo) async throws -> (any StoredPhotoFile)? {
        guard let format = MediaFormat(mimeType: photo.mimeType) else { return nil }
        return try await storage.openOriginal(sha256: photo.sha256, format: format)
    }

    /// What a browser plays of a clip: its web rendition when it needs one (nil until it is made), else the
    /// original; with the content type to serve it as.
    public func playable(_ photo: Photo) async throws -> (file: any StoredPhotoFile, contentType: String)? {
        guard let video = photo.video else { return nil }
        switch video.rendition {
        case .none:
            return try await original(photo).map { ($0, photo.mimeType) }
        case .ready:
            return try await storage.openRendition(sha256: photo.sha256).map { ($0, "video/mp4") }
        case .pending, .failed:
            return nil
        }
    }

    /// What a share link plays of a clip: never the original, whose tags may say where it was filmed (issue 33) — the
    /// web rendition (made without tags), or, for a clip that plays as it is, a copy of its streams without any tag,
    /// made when first asked for and kept in the rendition's place (such a clip has no rendition). Nil while a
    /// rendition is being made or when it could not be.
    public func sharedPlayable(_ photo: Photo) async throws -> (file: any StoredPhotoFile, contentType: String)? {
        guard let video = photo.video else { return nil }
        switch video.rendition {
        case .ready:
            return try await storage.openRendition(sha256: photo.sha256).map { ($0, "video/mp4") }
        case .pending, .failed:
            return nil
        case .none:
            if let copy = try await storage.openRendition(sha256: photo.sha256) { return (copy, photo.mimeType) }
            guard let format = MediaFormat(mimeType: photo.mimeType), format.isVideo,
                let original = try await storage.localOriginal(sha256: photo.sha256, format: format)
            else { throw PhotoError.internal("the original of photo \(photo.id) is missing") }
            let output = storage.scratchFile(extension: format.fileExtension)
            try await NIOThreadPool.singleton.runIfActive {
                try withExtendedLifetime(original) {
                    try VideoRendition.strippedCopy(
                        of: MediaInput(path: original.url.path, format: format), durationMilliseconds: video.durationMilliseconds,
                        output: output)
                }
            }
            try await storage.putRendition(output, sha256: photo.sha256)
            return try await storage.openRendition(sha256: photo.sha256).map { ($0, photo.mimeType) }
        }
    }

    /// A thumbnail, made now if the worker has not got to it yet (the square one is made when first asked for).
    public func thumbnail(_ photo: Photo, size: ThumbnailSize) async throws -> any StoredPhotoFile {
        if let stored = try await storage.openThumbnail(sha256: photo.sha256, size: size) { return stored }
        guard let format = MediaFormat(mimeType: photo.mimeType),
            let original = try await storage.localOriginal(sha256: photo.sha256, format: format)
        else { throw PhotoError.internal("the original of photo \(photo.id) is missing") }
        let scratch = storage.scratchFile(extension: "jpg")
        let data = try await NIOThreadPool.singleton.runIfActive { try Thumbnailer.thumbnail(of: photo, original: original.url, size: size, scratch: scratch) }
        try await storage.putThumbnail(data, sha256: photo.sha256, size: size)
        guard let stored = try await storage.openThumbnail(sha256: photo.sha256, size: size) else {
            throw PhotoError.internal("the thumbnail of photo \(photo.id) vanished")
        }
        return stored
    }
}
