import Foundation

/// Where photo files are kept: each original at its content address (SHA-256 and format), its thumbnails beside
/// it, and a local staging area that incoming bytes are streamed to first (they are hashed, inspected and
/// thumbnailed there, before anything is stored). `PhotoFolder` — the data folder's `photos/` — is the one
/// implementation today; object storage slots in here. Everything above it (`PhotoIntake`, the server's photo
/// service, backup and restore) speaks only this interface.
public protocol PhotoStorage: Sendable {
    /// A new staging file for bytes on their way in, refusing more than `limits.maxBytes`.
    func stage(limits: PhotoLimits) throws(PhotoError) -> UploadWriter

    /// Stores a finished staged file as the original with this content address. Returns false, and deletes the
    /// staged copy, when the same bytes are stored already.
    func putOriginal(_ staged: URL, sha256: String, format: ImageFormat) async throws(PhotoError) -> Bool

    /// The stored original, for reading in ranges; nil when it is not there.
    func openOriginal(sha256: String, format: ImageFormat) async throws(PhotoError) -> (any StoredPhotoFile)?

    /// A local file holding the original, for libvips and for writing backups; nil when it is not there.
    func originalFile(sha256: String, format: ImageFormat) async throws(PhotoError) -> URL?

    /// Stores a thumbnail (replacing one there already).
    func putThumbnail(_ data: Data, sha256: String, size: ThumbnailSize) async throws(PhotoError)

    /// A stored thumbnail, for reading; nil when it has not been made.
    func openThumbnail(sha256: String, size: ThumbnailSize) async throws(PhotoError) -> (any StoredPhotoFile)?

    /// Deletes an original and its thumbnails (when no photo row refers to the hash any more).
    func delete(sha256: String, format: ImageFormat) async

    /// Every stored original: for removing the files no row refers to after a crash.
    func listOriginals() async throws(PhotoError) -> [StoredOriginal]

    /// Empties the staging area: uploads cut off by a crash or a restart.
    func clearStaging()

    /// The lock every process writing here holds shared (see `PhotoWriterLock`).
    func writerLock() throws(PhotoError) -> PhotoWriterLock
}

/// One stored original's content address.
public struct StoredOriginal: Hashable, Sendable {
    public let sha256: String
    public let format: ImageFormat

    public init(sha256: String, format: ImageFormat) {
        self.sha256 = sha256
        self.format = format
    }
}

/// A stored file opened for reading: its size, and its bytes a range at a time.
public protocol StoredPhotoFile: Sendable {
    var byteCount: Int { get }
    /// Reads `range` (within `0..<byteCount`) in pieces of at most `chunkSize` bytes, handing each to `body`.
    func read(_ range: ClosedRange<Int>, chunkSize: Int, _ body: (Data) async throws -> Void) async throws
}

extension PhotoStorage {
    /// Libvips' start-up, before any request can race to do it.
    public static func startImageLibrary() throws(PhotoError) { try Vips.start() }
}
