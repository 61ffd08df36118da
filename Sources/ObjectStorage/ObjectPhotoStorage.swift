import Files
import Foundation
import S3Answers
import Photos

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Photos in an S3-compatible bucket, laid out as the data folder's `photos/` is (`originals/ab/<sha256>.<ext>`,
/// `thumbnails/<size>/ab/<sha256>.jpg`, under the URL's prefix), so several servers share them. What stays on the
/// machine: the staging area (`photos/incoming/`, where uploads are hashed, inspected and thumbnailed before anything
/// is stored), copies of originals fetched for libvips or a backup (`photos/cache/originals/`, deleted when done),
/// and a cache of thumbnails (`photos/cache/thumbnails/`), which is only a cache: delete it at any time.
///
/// An object appears whole or not at all (a single PUT, or a multipart upload that is completed only when every
/// part arrived and was checked), so a server killed mid-upload leaves no half photo; what it leaves — an object no
/// row refers to, or an unfinished multipart upload — the orphan sweep removes once it is older than
/// `PhotoStorageSweep.sharedGrace`. Photos are never made public or presigned: the server reads them and serves them
/// after its own checks.
public struct ObjectPhotoStorage: PhotoStorage {
    public let client: S3Client
    /// The data folder's `photos/`: staging, fetched copies and the thumbnail cache.
    public let local: URL
    public var isShared: Bool { true }
    public var location: String { client.settings.description }
    /// Whether thumbnails are read from and kept in the local cache; `photos migrate` checks the bucket itself.
    public var cachesThumbnails = true

    /// Thumbnails are small; anything larger under their names is not one of ours.
    static let thumbnailLimit = 16 << 20

    /// Why the store cannot be used: said at start, before anything is served.
    public struct Unusable: Error, CustomStringConvertible {
        public let description: String
    }

    public init(client: S3Client, dataFolder: URL) throws(PhotoError) {
        self.client = client
        local = dataFolder.appendingPathComponent("photos", isDirectory: true)
        for folder in ["incoming", "cache/originals"] + ThumbnailSize.allCases.map({ "cache/thumbnails/\($0.rawValue)" }) {
            do {
                try FileManager.default.createDirectory(
                    at: local.appendingPathComponent(folder), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .internal("cannot create \(local.appendingPathComponent(folder).path): \(error)")
            }
        }
    }

    /// Opens the store and checks at once that the bucket is there and the keys may use it, naming what is wrong.
    public static func open(_ settings: S3Settings, dataFolder: URL) async throws -> ObjectPhotoStorage {
        let client = S3Client(settings: settings, attempts: 2)
        do {
            try await client.checkAccess()
        } catch {
            throw Unusable(description: Self.explain(error, settings: settings))
        }
        return try ObjectPhotoStorage(client: S3Client(settings: settings), dataFolder: dataFolder)
    }

    static func explain(_ error: S3Error, settings: S3Settings) -> String {
        let store = "the photo store \(settings.description)"
        switch error {
        case .refused(_, "NoSuchBucket", _):
            return "\(store): the bucket '\(settings.bucket)' does not exist (create it first)"
        case .refused(_, let code, _) where error.isCredentials:
            return "\(store) refused Saessak's keys (\(code)): check \(S3Settings.accessKeyVariable) and \(S3Settings.secretKeyVariable)"
        case .unreachable(let why):
            return "\(store) cannot be reached: \(why)"
        default:
            return "\(store): \(error)"
        }
    }

    // MARK: PhotoStorage

    public func stage(limits: PhotoLimits) throws(PhotoError) -> UploadWriter {
        try UploadWriter(url: local.appendingPathComponent("incoming/\(UUID().uuidString).part"), limit: limits.maxBytes, videoLimit: limits.video.maxBytes)
    }

    public func putOriginal(_ staged: URL, sha256: String, format: MediaFormat) async throws(PhotoError) -> Bool {
        defer { unlink(staged.path) }
        let key = client.key(StoredOriginal(sha256: sha256, format: format).path)
        do {
            let size = try S3Client.size(of: staged)
            if let stored = try await client.head(key), stored.size == size { return false }
            try await client.upload(key, file: staged, sha256: sha256, contentType: format.mimeType)
        } catch {
            throw Self.photoError(error)
        }
        return true
    }

    public func openOriginal(sha256: String, format: MediaFormat) async throws(PhotoError) -> (any StoredPhotoFile)? {
        let key = client.key(StoredOriginal(sha256: sha256, format: format).path)
        do {
            guard let stored = try await client.head(key) else { return nil }
            return ObjectFile(client: client, key: key, byteCount: stored.size)
        } catch {
            throw Self.photoError(error)
        }
    }

    /// Fetched to `cache/originals/` and checked against its SHA-256 (its name) before anyone reads it; deleted
    /// when the caller is done with it.
    public func localOriginal(sha256: String, format: MediaFormat) async throws(PhotoError) -> LocalOriginal? {
        let key = client.key(StoredOriginal(sha256: sha256, format: format).path)
        let file = local.appendingPathComponent("cache/originals/\(UUID().uuidString).\(format.fileExtension)")
        let copy = LocalOriginal(url: file, temporary: true)
        do {
            guard let stored = try await client.head(key) else { return nil }
            let got = try await client.download(key, size: stored.size, to: file)
            guard got == sha256 else { throw PhotoError.internal("\(key) does not hash to its name (got \(got))") }
        } catch let error as S3Error {
            throw Self.photoError(error)
        } catch {
            throw error as? PhotoError ?? .internal("\(error)")
        }
        return copy
    }

    public func putThumbnail(_ data: Data, sha256: String, size: ThumbnailSize) async throws(PhotoError) {
        let thumbnail = StoredThumbnail(sha256: sha256, size: size)
        do {
            try await client.put(client.key(thumbnail.path), data: data, contentType: "image/jpeg")
        } catch {
            throw Self.photoError(error)
        }
        if cachesThumbnails { cache(data, thumbnail) }
    }

    /// From the local cache, or fetched into it.
    public func openThumbnail(sha256: String, size: ThumbnailSize) async throws(PhotoError) -> (any StoredPhotoFile)? {
        let thumbnail = StoredThumbnail(sha256: sha256, size: size)
        if cachesThumbnails, let cached = LocalPhotoFile(cached(thumbnail)) { return cached }
        let data: Data
        do {
            guard let fetched = try await client.read(client.key(thumbnail.path), limit: Self.thumbnailLimit) else { return nil }
            data = fetched
        } catch {
            throw Self.photoError(error)
        }
        guard cachesThumbnails else { return InMemoryPhotoFile(data: data) }
        cache(data, thumbnail)
        return LocalPhotoFile(cached(thumbnail)) ?? InMemoryPhotoFile(data: data)
    }

    public func putRendition(_ file: URL, sha256: String) async throws(PhotoError) {
        defer { unlink(file.path) }
        do {
            try await client.upload(client.key(StoredRendition(sha256: sha256).path), file: file, sha256: nil, contentType: "video/mp4")
        } catch {
            throw Self.photoError(error)
        }
    }

    public func openRendition(sha256: String) async throws(PhotoError) -> (any StoredPhotoFile)? {
        let key = client.key(StoredRendition(sha256: sha256).path)
        do {
            guard let stored = try await client.head(key) else { return nil }
            return ObjectFile(client: client, key: key, byteCount: stored.size)
        } catch {
            throw Self.photoError(error)
        }
    }

    public func listRenditions() async throws(PhotoError) -> [StoredRendition] {
        do {
            return try await client.list(prefix: client.key("renditions/")).compactMap { object in
                StoredRendition(fileName: object.key.split(separator: "/").last ?? "")
            }
        } catch {
            throw Self.photoError(error)
        }
    }

    public func putBook(_ file: URL, _ book: StoredBook) async throws(PhotoError) {
        defer { unlink(file.path) }
        do {
            try await client.upload(client.key(book.path), file: file, sha256: nil, contentType: book.name.hasSuffix(".pdf") ? "application/pdf" : "application/zip")
        } catch {
            throw Self.photoError(error)
        }
    }

    public func openBook(_ book: StoredBook) async throws(PhotoError) -> (any StoredPhotoFile)? {
        let key = client.key(book.path)
        do {
            guard let stored = try await client.head(key) else { return nil }
            return ObjectFile(client: client, key: key, byteCount: stored.size)
        } catch {
            throw Self.photoError(error)
        }
    }

    public func deleteBook(_ book: StoredBook) async {
        try? await client.delete(client.key(book.path))
    }

    public func scratchFile(extension: String) -> URL {
        local.appendingPathComponent("incoming/\(UUID().uuidString).\(`extension`)")
    }

    public func delete(sha256: String, format: MediaFormat) async {
        try? await client.delete(client.key(StoredOriginal(sha256: sha256, format: format).path))
        try? await client.delete(client.key(StoredRendition(sha256: sha256).path))
        for size in ThumbnailSize.allCases {
            let thumbnail = StoredThumbnail(sha256: sha256, size: size)
            try? await client.delete(client.key(thumbnail.path))
            unlink(cached(thumbnail).path)
        }
    }

    public func listOriginals() async throws(PhotoError) -> [StoredOriginal] {
        let prefix = client.key("originals/")
        do {
            return try await client.list(prefix: prefix).compactMap { object in
                StoredOriginal(fileName: object.key.split(separator: "/").last ?? "", storedAt: object.lastModified)
            }
        } catch {
            throw Self.photoError(error)
        }
    }

    public func listThumbnails() async throws(PhotoError) -> [StoredThumbnail] {
        let prefix = client.key("thumbnails/")
        do {
            return try await client.list(prefix: prefix).compactMap { object in
                let parts = object.key.dropFirst(prefix.count).split(separator: "/")
                return parts.count == 3 ? StoredThumbnail(sizeName: parts[0], fileName: parts[2]) : nil
            }
        } catch {
            throw Self.photoError(error)
        }
    }

    public func abandonUnfinished(before cutoff: Date) async throws(PhotoError) -> Int {
        do {
            var count = 0
            for upload in try await client.unfinishedUploads(prefix: client.key("")) where upload.initiated < cutoff {
                try await client.abort(upload.key, uploadID: upload.uploadID)
                count += 1
            }
            return count
        } catch {
            throw Self.photoError(error)
        }
    }

    /// Uploads cut off, and fetched copies of originals left by a process that ended before deleting them.
    public func clearStaging() {
        for folder in ["incoming", "cache/originals"].map(local.appendingPathComponent) {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
                unlink(folder.appendingPathComponent(name).path)
            }
        }
    }

    /// Guards this machine's staging area (see `PhotoWriterLock`); other machines are told apart by age.
    public func writerLock() throws(PhotoError) -> PhotoWriterLock {
        try PhotoWriterLock(file: local.appendingPathComponent(".writers"))
    }

    // MARK: Helpers

    func cached(_ thumbnail: StoredThumbnail) -> URL {
        local.appendingPathComponent("cache/thumbnails/\(thumbnail.size.rawValue)/\(thumbnail.sha256.prefix(2))/\(thumbnail.sha256).jpg")
    }

    /// Keeps a thumbnail in the cache, if the disk lets it (a cache that cannot be written is no failure).
    func cache(_ data: Data, _ thumbnail: StoredThumbnail) {
        let url = cached(thumbnail)
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? AtomicFile.write(data, to: url, permissions: 0o600)
    }

    static func photoError(_ error: S3Error) -> PhotoError {
        switch error {
        case .unreachable: .unavailable(error.description)
        default: .internal(error.description)
        }
    }
}

/// An original in the bucket, read a window at a time (each window one ranged GET, tried again on its own).
struct ObjectFile: StoredPhotoFile {
    let client: S3Client
    let key: String
    let byteCount: Int

    func read(_ range: ClosedRange<Int>, chunkSize: Int, _ body: (Data) async throws -> Void) async throws {
        var offset = range.lowerBound
        while offset <= range.upperBound {
            let upper = min(range.upperBound, offset + S3Client.readWindow - 1)
            guard let data = try await client.read(key, range: offset...upper) else {
                throw PhotoError.internal("the photo \(key) went away while it was read")
            }
            var start = 0
            while start < data.count {
                let end = min(data.count, start + max(1, chunkSize))
                try await body(data.subdata(in: start..<end))
                start = end
            }
            offset = upper + 1
        }
    }
}

/// A thumbnail fetched but not cached (the cache's disk refused it).
struct InMemoryPhotoFile: StoredPhotoFile {
    let data: Data
    var byteCount: Int { data.count }

    func read(_ range: ClosedRange<Int>, chunkSize: Int, _ body: (Data) async throws -> Void) async throws {
        guard range.lowerBound >= 0, range.upperBound < data.count else { throw PhotoError.internal("a range past the thumbnail's end") }
        try await body(data.subdata(in: range.lowerBound..<(range.upperBound + 1)))
    }
}
