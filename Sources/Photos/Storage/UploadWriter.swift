import Crypto
import Files
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streams one uploaded file to disk as it arrives, hashing it on the way, so a 12 MB photo never sits in memory.
/// Stops with `PhotoError.tooLarge` as soon as the limit is passed. One task or thread uses it at a time — the
/// request that streams into it, then the thread-pool job that checks it: `@unchecked Sendable` for that hand-over.
public final class UploadWriter: @unchecked Sendable {
    public let url: URL
    private let limit: Int
    private var descriptor: Int32
    private var hasher = SHA256()
    public private(set) var byteCount = 0
    /// The first bytes, for recognising the format.
    public private(set) var head: [UInt8] = []
    /// Whether `head` is a video's, which may be larger.
    private var isVideo = false

    /// The limit once the first bytes show a video (nil: the same as a photo's).
    private let videoLimit: Int?

    public init(url: URL, limit: Int, videoLimit: Int? = nil) throws(PhotoError) {
        self.url = url
        self.limit = limit
        self.videoLimit = videoLimit
        descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .internal("cannot create \(url.lastPathComponent): \(String(cString: strerror(errno)))") }
    }

    /// A file already complete at `url` (a resumable upload's bytes, linked into the staging area): read once for
    /// its hash, format and size, under the same limits as a streamed upload. It is deleted with the writer unless
    /// it is stored.
    public init(adopting url: URL, limit: Int, videoLimit: Int? = nil) throws(PhotoError) {
        self.url = url
        self.limit = limit
        self.videoLimit = videoLimit
        descriptor = open(url.path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw .internal("cannot open \(url.lastPathComponent): \(String(cString: strerror(errno)))") }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .internal("reading \(url.lastPathComponent) failed: \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            try account(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    deinit { abandon() }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(PhotoError) {
        guard !bytes.isEmpty else { return }
        try account(bytes)
        do {
            try POSIXFile.writeAll(descriptor, bytes)
        } catch {
            throw .internal("writing the upload failed: \(error)")
        }
    }

    /// Counts, sniffs and hashes bytes on their way in, refusing them past the limit.
    private func account(_ bytes: UnsafeRawBufferPointer) throws(PhotoError) {
        byteCount += bytes.count
        if head.count < MediaFormat.sniffLength {
            head += bytes.prefix(MediaFormat.sniffLength - head.count)
            isVideo = (try? MediaFormat.sniff(head).get())?.isVideo ?? false
        }
        if isVideo, let videoLimit {
            guard byteCount <= videoLimit else {
                throw .tooLarge("the video is larger than the \(ImageInspector.megabytes(videoLimit)) limit")
            }
        } else if byteCount > limit {
            throw .tooLarge("the photo is larger than the \(ImageInspector.megabytes(limit)) limit")
        }
        hasher.update(bufferPointer: bytes)
    }

    /// `write` for callers inside a closure, where a typed throw crashes this compiler.
    public func write(untyped bytes: UnsafeRawBufferPointer) throws { try write(bytes) }

    /// Flushes the file to disk, closes it and returns its SHA-256 (lowercase hex); again, the same (an importer
    /// finishes each file as it stages it, so that thousands waiting to be checked hold no descriptor).
    public func finish() throws(PhotoError) -> String {
        if let finished { return finished }
        guard descriptor >= 0 else { throw .internal("the upload was already closed") }
        guard fsync(descriptor) == 0 else { throw .internal("fsync failed: \(String(cString: strerror(errno)))") }
        close(descriptor)
        descriptor = -1
        let sha256 = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        finished = sha256
        return sha256
    }

    private var finished: String?

    /// Closes and deletes the file, unless it has been moved to its content address.
    public func abandon() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        unlink(url.path)
    }
}
