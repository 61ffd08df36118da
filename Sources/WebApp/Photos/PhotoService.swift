import Diary
import DiaryStore
import Foundation
import Importers
import Logging
import NIOPosix
import Photos

/// Everything the server does with photo files: taking uploads in, deleting files whose last row went, and
/// tidying up after a crash. Image work runs on NIO's thread pool, off the request threads.
struct PhotoService: Sendable {
    let library: PhotoLibrary
    let store: PhotoStore
    let worker: ThumbnailWorker
    let limits: PhotoLimits
    /// Held shared for the server's life; start-up's sweep of orphan files needs it alone.
    let writing: PhotoWriterLock
    /// Uploads never attached to an entry or a child are deleted after this long.
    static let unattachedLifetime: TimeInterval = 24 * 3600
    /// Photos one request may carry.
    static let maxFilesPerRequest = 50

    init(dataFolder: URL, database: DiaryDatabase, limits: PhotoLimits = .standard, logger: Logger) throws {
        try PhotoLibrary.startImageLibrary()
        library = try PhotoLibrary(dataFolder: dataFolder)
        writing = try PhotoWriterLock(library: library)
        store = PhotoStore(database)
        worker = ThumbnailWorker(library: library, store: store, logger: logger)
        self.limits = limits
    }

    /// Start-up: drops old unattached uploads and — when no other process is writing photos (an import from the
    /// command line; see `PhotoWriterLock`) — uploads cut off by a crash and files no row refers to. Returns
    /// whether it could sweep the files.
    @discardableResult
    func tidy() async throws -> Bool {
        release(try await store.deleteUnattached(olderThan: Self.unattachedLifetime))
        let referenced = try await store.referencedHashes()
        return writing.whileAlone {
            library.clearIncoming()
            for file in library.storedOriginals() where !referenced.contains(file.sha256) {
                library.remove(sha256: file.sha256, format: file.format)
            }
        }
    }

    /// Checks, stores and records the photos of one request, all or nothing: any bad file refuses the whole
    /// request and leaves nothing behind. The small thumbnail is made here (it also proves the file decodes);
    /// the large one by the worker.
    func ingest(_ uploads: [UploadWriter], family: FamilyID, entry: EntryID?, now: Date) async throws -> [Photo] {
        defer { uploads.forEach { $0.abandon() } }
        var checked: [(upload: UploadWriter, sha256: String, info: ImageInfo, small: Data)] = []
        for upload in uploads {
            let sha256 = try upload.finish()
            let url = upload.url
            let (info, small) = try await NIOThreadPool.singleton.runIfActive { [limits] in
                let info = try ImageInspector.inspect(url, limits: limits)
                return (info, try Thumbnailer.thumbnail(of: url, size: .small))
            }
            checked.append((upload, sha256, info, small))
        }
        var placed: [(sha256: String, format: ImageFormat)] = []
        do {
            for item in checked {
                if try library.keep(item.upload.url, sha256: item.sha256, format: item.info.format).isNew {
                    placed.append((item.sha256, item.info.format))
                }
                try library.saveThumbnail(item.small, sha256: item.sha256, size: .small)
            }
            let photos = checked.map { item in
                Photo(checked: item.info, sha256: item.sha256, byteCount: item.upload.byteCount, family: family, now: now)
            }
            let stored = try await store.add(photos, family: family, entry: entry)
            stored.filter { !$0.thumbnailsReady }.forEach(worker.enqueue)
            return stored
        } catch {
            // Files this request placed and no row refers to go again.
            let referenced = (try? await store.referencedHashes()) ?? []
            for file in placed where !referenced.contains(file.sha256) { library.remove(sha256: file.sha256, format: file.format) }
            throw error
        }
    }

    /// Deletes the files whose last row is gone.
    func release(_ files: [PhotoStore.ReleasedFile]) {
        for file in files {
            guard let format = ImageFormat.allCases.first(where: { $0.mimeType == file.mimeType }) else { continue }
            library.remove(sha256: file.sha256, format: format)
        }
    }

    func originalURL(_ photo: Photo) -> URL? {
        ImageFormat.allCases.first { $0.mimeType == photo.mimeType }.map { library.original(sha256: photo.sha256, format: $0) }
    }

    /// The thumbnail file, made now if the worker has not got to it yet.
    func thumbnailURL(_ photo: Photo, size: ThumbnailSize) async throws -> URL {
        let url = library.thumbnail(sha256: photo.sha256, size: size)
        if photo.thumbnailsReady && size != .square || FileManager.default.fileExists(atPath: url.path) { return url }
        guard let original = originalURL(photo) else { throw PhotoError.internal("unknown stored format \(photo.mimeType)") }
        let data = try await NIOThreadPool.singleton.runIfActive { try Thumbnailer.thumbnail(of: original, size: size) }
        try library.saveThumbnail(data, sha256: photo.sha256, size: size)
        return url
    }
}
