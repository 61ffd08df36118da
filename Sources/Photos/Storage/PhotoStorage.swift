import Diary
import Foundation

/// Where photo files are kept: each original at its content address (SHA-256 and format), its thumbnails beside
/// it, and a local staging area that incoming bytes are streamed to first (they are hashed, inspected and
/// thumbnailed there, before anything is stored). `PhotoFolder` keeps them in the data folder's `photos/`;
/// `ObjectPhotoStorage` (module ObjectStorage) in an S3-compatible bucket that several servers share. Everything
/// above it (`PhotoIntake`, the server's photo service, backup and restore, import, `photos migrate`) speaks only
/// this interface.
public protocol PhotoStorage: Sendable {
    /// Shared by several machines (object storage): the orphan sweep cannot know by a local lock that no upload is
    /// under way elsewhere, so it removes only files older than `PhotoService.sharedGrace` (module Services).
    var isShared: Bool { get }

    /// Where the photos are, for messages and listings (never a key or password).
    var location: String { get }

    /// A new staging file for bytes on their way in, refusing more than `limits.maxBytes`.
    func stage(limits: PhotoLimits) throws(PhotoError) -> UploadWriter

    /// Stores a finished staged file as the original with this content address. Returns false, and deletes the
    /// staged copy, when the same bytes are stored already.
    func putOriginal(_ staged: URL, sha256: String, format: MediaFormat) async throws(PhotoError) -> Bool

    /// The stored original, for reading in ranges; nil when it is not there.
    func openOriginal(sha256: String, format: MediaFormat) async throws(PhotoError) -> (any StoredPhotoFile)?

    /// A local file holding the original, for libvips and for writing backups, kept while the returned value
    /// lives; nil when it is not there.
    func localOriginal(sha256: String, format: MediaFormat) async throws(PhotoError) -> LocalOriginal?

    /// Stores a thumbnail (replacing one there already).
    func putThumbnail(_ data: Data, sha256: String, size: ThumbnailSize) async throws(PhotoError)

    /// A stored thumbnail, for reading; nil when it has not been made.
    func openThumbnail(sha256: String, size: ThumbnailSize) async throws(PhotoError) -> (any StoredPhotoFile)?

    /// Stores a clip's web rendition (an MP4 made in `scratchFile`), moving it away from there. A clip that plays as
    /// it is has none; its place holds the copy without tags that share links play, in the clip's own container.
    func putRendition(_ file: URL, sha256: String) async throws(PhotoError)

    /// A clip's stored web rendition; nil when it has not been made.
    func openRendition(sha256: String) async throws(PhotoError) -> (any StoredPhotoFile)?

    /// Every stored rendition: for the orphan sweep.
    func listRenditions() async throws(PhotoError) -> [StoredRendition]

    /// Stores a finished book or archive (`books/<name>`, `StoredBook`), moving it from `file`: made by one server,
    /// downloaded from any.
    func putBook(_ file: URL, _ book: StoredBook) async throws(PhotoError)

    /// A stored book, for reading; nil when there is none (never made, or deleted).
    func openBook(_ book: StoredBook) async throws(PhotoError) -> (any StoredPhotoFile)?

    /// Deletes a stored book (nothing when it is not there).
    func deleteBook(_ book: StoredBook) async

    /// A new path in the local staging area for a tool's output (a poster frame, a rendition being made); the
    /// staging area is emptied at start.
    func scratchFile(extension: String) -> URL

    /// Deletes an original, its thumbnails and its rendition (when no photo row refers to the hash any more).
    func delete(sha256: String, format: MediaFormat) async

    /// Every stored original: for removing the files no row refers to after a crash.
    func listOriginals() async throws(PhotoError) -> [StoredOriginal]

    /// Every stored thumbnail: for copying them to another store.
    func listThumbnails() async throws(PhotoError) -> [StoredThumbnail]

    /// Ends uploads cut off before `cutoff` that the store still holds in part (multipart uploads); returns how many.
    func abandonUnfinished(before cutoff: Date) async throws(PhotoError) -> Int

    /// Empties the staging area: uploads cut off by a crash or a restart.
    func clearStaging()

    /// The lock every process writing here holds shared (see `PhotoWriterLock`).
    func writerLock() throws(PhotoError) -> PhotoWriterLock
}

/// One stored original's content address, and when it was stored (when the store says).
public struct StoredOriginal: Hashable, Sendable {
    public let sha256: String
    public let format: MediaFormat
    public let storedAt: Date?

    public init(sha256: String, format: MediaFormat, storedAt: Date? = nil) {
        self.sha256 = sha256
        self.format = format
        self.storedAt = storedAt
    }

    /// The file name in either store: `<sha256>.<ext>`, parsed back; nil for anything else.
    public init?(fileName: some StringProtocol, storedAt: Date? = nil) {
        let parts = fileName.split(separator: ".")
        guard parts.count == 2, parts[0].count == 64, parts[0].allSatisfy(\.isLowercaseHex),
            let format = MediaFormat(fileExtension: parts[1])
        else { return nil }
        self.init(sha256: String(parts[0]), format: format, storedAt: storedAt)
    }

    /// Where it lives under a store's root: `originals/ab/<sha256>.<ext>`.
    public var path: String { "originals/\(sha256.prefix(2))/\(sha256).\(format.fileExtension)" }
}

/// One stored thumbnail.
public struct StoredThumbnail: Hashable, Sendable {
    public let sha256: String
    public let size: ThumbnailSize

    public init(sha256: String, size: ThumbnailSize) {
        self.sha256 = sha256
        self.size = size
    }

    /// `thumbnails/<size>/ab/<sha256>.jpg`, parsed back from its parts; nil for anything else.
    public init?(sizeName: some StringProtocol, fileName: some StringProtocol) {
        guard let size = ThumbnailSize(rawValue: String(sizeName)), fileName.hasSuffix(".jpg") else { return nil }
        let sha = fileName.dropLast(4)
        guard sha.count == 64, sha.allSatisfy(\.isLowercaseHex) else { return nil }
        self.init(sha256: String(sha), size: size)
    }

    public var path: String { "thumbnails/\(size.rawValue)/\(sha256.prefix(2))/\(sha256).jpg" }
}

/// A clip's web rendition: `renditions/ab/<sha256>.mp4`, named by its original's hash.
public struct StoredRendition: Hashable, Sendable {
    public let sha256: String

    public init(sha256: String) { self.sha256 = sha256 }

    public init?(fileName: some StringProtocol) {
        guard fileName.hasSuffix(".mp4") else { return nil }
        let sha = fileName.dropLast(4)
        guard sha.count == 64, sha.allSatisfy(\.isLowercaseHex) else { return nil }
        self.init(sha256: String(sha))
    }

    public var path: String { "renditions/\(sha256.prefix(2))/\(sha256).mp4" }
}

/// A finished book or archive in the store: `books/<job id>.pdf` or `.zip` (an id is a lowercase UUID: nothing else
/// becomes a path).
public struct StoredBook: Hashable, Sendable {
    public let name: String

    public init(_ job: BookJob) { name = "\(job.id).\(job.request.format.fileExtension)" }

    public var path: String { "books/\(name)" }
}

extension Character {
    /// 0-9 and a-f, as a SHA-256 is written in file and object names (not the fullwidth forms `isHexDigit` allows).
    var isLowercaseHex: Bool { isASCII && isHexDigit && !isUppercase }
}

/// A local file holding an original: the stored file itself (the folder), or a copy fetched for the caller and
/// deleted when this goes (object storage).
public final class LocalOriginal: Sendable {
    public let url: URL
    private let temporary: Bool

    public init(url: URL, temporary: Bool) {
        self.url = url
        self.temporary = temporary
    }

    deinit {
        if temporary { try? FileManager.default.removeItem(at: url) }
    }
}

/// A stored file opened for reading: its size, and its bytes a range at a time.
public protocol StoredPhotoFile: Sendable {
    var byteCount: Int { get }
    /// Reads `range` (within `0..<byteCount`) in pieces of at most `chunkSize` bytes, handing each to `body`.
    func read(_ range: ClosedRange<Int>, chunkSize: Int, _ body: (Data) async throws -> Void) async throws
}

extension StoredPhotoFile {
    /// The whole file in memory: for small ones (thumbnails), never for an original.
    public func readAll() async throws -> Data {
        var data = Data()
        guard byteCount > 0 else { return data }
        data.reserveCapacity(byteCount)
        try await read(0...(byteCount - 1), chunkSize: 1 << 20) { data.append($0) }
        return data
    }
}

extension PhotoStorage {
    /// Libvips' start-up, before any request can race to do it.
    public static func startImageLibrary() throws(PhotoError) { try Vips.start() }

    /// The image library's version and the loaders and savers of those the diary takes that it lacks (a libvips
    /// built without libheif cannot read an iPhone's HEIC photos).
    public static func imageLibrary() throws(PhotoError) -> (version: String, missing: [String]) {
        try Vips.capabilities(["jpegload", "pngload", "webpload", "heifload", "jpegsave", "webpsave"])
    }
}
