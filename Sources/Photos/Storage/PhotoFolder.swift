import Files
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Photo files in a data folder, content-addressed by SHA-256: `photos/originals/ab/<sha256>.<ext>` (never
/// modified), `photos/thumbnails/<size>/ab/<sha256>.jpg`, a clip's web rendition `photos/renditions/ab/<sha256>.mp4`,
/// the books and archives made for download `photos/books/<id>.pdf|zip`, and `photos/incoming/` for bytes on their way in.
public struct PhotoFolder: PhotoStorage {
    public let root: URL
    public var isShared: Bool { false }
    public var location: String { root.path }

    public init(dataFolder: URL) throws(PhotoError) {
        root = dataFolder.appendingPathComponent("photos", isDirectory: true)
        for folder in ["originals", "incoming", "renditions", "books"] + ThumbnailSize.allCases.map({ "thumbnails/\($0.rawValue)" }) {
            do {
                try FileManager.default.createDirectory(
                    at: root.appendingPathComponent(folder), withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            } catch {
                throw .internal("cannot create \(root.appendingPathComponent(folder).path): \(error)")
            }
        }
    }

    public func stage(limits: PhotoLimits) throws(PhotoError) -> UploadWriter {
        try UploadWriter(url: root.appendingPathComponent("incoming/\(UUID().uuidString).part"), limit: limits.maxBytes, videoLimit: limits.video.maxBytes)
    }

    /// A rename within the data folder, then a sync of the folder it landed in.
    public func putOriginal(_ staged: URL, sha256: String, format: MediaFormat) throws(PhotoError) -> Bool {
        let destination = original(sha256: sha256, format: format)
        try makeFolder(for: destination)
        if FileManager.default.fileExists(atPath: destination.path) {
            unlink(staged.path)
            return false
        }
        guard rename(staged.path, destination.path) == 0 else {
            throw .internal("cannot store the photo: \(String(cString: strerror(errno)))")
        }
        POSIXFile.syncFolder(destination.deletingLastPathComponent())
        return true
    }

    public func openOriginal(sha256: String, format: MediaFormat) throws(PhotoError) -> (any StoredPhotoFile)? {
        LocalPhotoFile(original(sha256: sha256, format: format))
    }

    public func localOriginal(sha256: String, format: MediaFormat) -> LocalOriginal? {
        let url = original(sha256: sha256, format: format)
        return FileManager.default.fileExists(atPath: url.path) ? LocalOriginal(url: url, temporary: false) : nil
    }

    public func putThumbnail(_ data: Data, sha256: String, size: ThumbnailSize) throws(PhotoError) {
        let url = thumbnail(sha256: sha256, size: size)
        try makeFolder(for: url)
        do {
            try AtomicFile.write(data, to: url, permissions: 0o600)
        } catch {
            throw .internal("cannot write a thumbnail: \(error)")
        }
    }

    public func openThumbnail(sha256: String, size: ThumbnailSize) throws(PhotoError) -> (any StoredPhotoFile)? {
        LocalPhotoFile(thumbnail(sha256: sha256, size: size))
    }

    public func putRendition(_ file: URL, sha256: String) throws(PhotoError) {
        try moveIntoPlace(file, at: StoredRendition(sha256: sha256).path, what: "the rendition")
    }

    /// `file` flushed to disk, renamed to `path` within the data folder (scratch files are in `incoming/`), then the
    /// folder synced: a power cut leaves the whole file or none.
    private func moveIntoPlace(_ file: URL, at path: String, what: String) throws(PhotoError) {
        let destination = root.appendingPathComponent(path)
        try makeFolder(for: destination)
        do {
            try POSIXFile.syncFile(file)
        } catch {
            throw .internal("cannot flush \(what): \(error)")
        }
        guard rename(file.path, destination.path) == 0 else {
            throw .internal("cannot store \(what): \(String(cString: strerror(errno)))")
        }
        POSIXFile.syncFolder(destination.deletingLastPathComponent())
    }

    public func openRendition(sha256: String) throws(PhotoError) -> (any StoredPhotoFile)? {
        LocalPhotoFile(root.appendingPathComponent(StoredRendition(sha256: sha256).path))
    }

    public func listRenditions() -> [StoredRendition] {
        let folder = root.appendingPathComponent("renditions")
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return enumerator.compactMap { item in (item as? String).flatMap { StoredRendition(fileName: URL(fileURLWithPath: $0).lastPathComponent) } }
    }

    public func putBook(_ file: URL, _ book: StoredBook) throws(PhotoError) {
        try moveIntoPlace(file, at: book.path, what: "the book")
    }

    public func openBook(_ book: StoredBook) throws(PhotoError) -> (any StoredPhotoFile)? {
        LocalPhotoFile(root.appendingPathComponent(book.path))
    }

    public func deleteBook(_ book: StoredBook) {
        unlink(root.appendingPathComponent(book.path).path)
    }

    public func scratchFile(extension: String) -> URL {
        root.appendingPathComponent("incoming/\(UUID().uuidString).\(`extension`)")
    }

    public func delete(sha256: String, format: MediaFormat) {
        unlink(original(sha256: sha256, format: format).path)
        unlink(root.appendingPathComponent(StoredRendition(sha256: sha256).path).path)
        for size in ThumbnailSize.allCases { unlink(thumbnail(sha256: sha256, size: size).path) }
    }

    public func listOriginals() -> [StoredOriginal] {
        let folder = root.appendingPathComponent("originals")
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return enumerator.compactMap { item in
            guard let relative = item as? String, let stored = StoredOriginal(fileName: URL(fileURLWithPath: relative).lastPathComponent) else { return nil }
            let modified = (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(relative).path))?[.modificationDate] as? Date
            return StoredOriginal(sha256: stored.sha256, format: stored.format, storedAt: modified)
        }
    }

    public func listThumbnails() -> [StoredThumbnail] {
        ThumbnailSize.allCases.flatMap { size -> [StoredThumbnail] in
            let folder = root.appendingPathComponent("thumbnails/\(size.rawValue)")
            guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
            return enumerator.compactMap { item in
                (item as? String).flatMap { StoredThumbnail(sizeName: size.rawValue, fileName: URL(fileURLWithPath: $0).lastPathComponent) }
            }
        }
    }

    /// Nothing: a file in the folder is renamed into place whole.
    public func abandonUnfinished(before cutoff: Date) -> Int { 0 }

    public func clearStaging() {
        let folder = root.appendingPathComponent("incoming")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            unlink(folder.appendingPathComponent(name).path)
        }
    }

    public func writerLock() throws(PhotoError) -> PhotoWriterLock {
        try PhotoWriterLock(file: root.appendingPathComponent(".writers"))
    }

    func original(sha256: String, format: MediaFormat) -> URL {
        root.appendingPathComponent(StoredOriginal(sha256: sha256, format: format).path)
    }

    func thumbnail(sha256: String, size: ThumbnailSize) -> URL {
        root.appendingPathComponent(StoredThumbnail(sha256: sha256, size: size).path)
    }

    private func makeFolder(for file: URL) throws(PhotoError) {
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .internal("cannot create \(file.deletingLastPathComponent().path): \(error)")
        }
    }
}

/// A file of the photo folder, opened: one open and one fstat, cheaper than asking FileManager first.
public struct LocalPhotoFile: StoredPhotoFile {
    let handle: FileHandle
    public let byteCount: Int

    public init?(_ url: URL) {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0, let size = Int(exactly: status.st_size) else { return nil }
        byteCount = size
    }

    public func read(_ range: ClosedRange<Int>, chunkSize: Int, _ body: (Data) async throws -> Void) async throws {
        try handle.seek(toOffset: UInt64(range.lowerBound))
        var left = range.count
        while left > 0 {
            guard let data = try handle.read(upToCount: min(chunkSize, left)), !data.isEmpty else {
                throw PhotoError.internal("the photo file ended early")
            }
            left -= data.count
            try await body(data)
        }
    }
}
