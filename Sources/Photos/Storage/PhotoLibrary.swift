import Foundation
import Secrets

#if canImport(Glibc)
import Glibc
#endif

/// The photo files of a data folder, content-addressed by SHA-256:
/// `photos/originals/ab/<sha256>.<ext>` (never modified), `photos/thumbnails/<size>/ab/<sha256>.jpg`,
/// and `photos/incoming/` for uploads in progress (emptied at start-up).
public struct PhotoLibrary: Sendable {
    public let root: URL

    public init(dataFolder: URL) throws {
        root = dataFolder.appendingPathComponent("photos", isDirectory: true)
        for folder in ["originals", "incoming"] + ThumbnailSize.allCases.map({ "thumbnails/\($0.rawValue)" }) {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(folder), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
    }

    /// Starts libvips before any request can race to do it.
    public static func startImageLibrary() throws(PhotoError) { try Vips.start() }

    public func original(sha256: String, format: ImageFormat) -> URL {
        root.appendingPathComponent("originals/\(sha256.prefix(2))/\(sha256).\(format.fileExtension)")
    }

    public func thumbnail(sha256: String, size: ThumbnailSize) -> URL {
        root.appendingPathComponent("thumbnails/\(size.rawValue)/\(sha256.prefix(2))/\(sha256).jpg")
    }

    /// A new file for an upload in progress.
    public func incoming(limits: PhotoLimits = .standard) throws(PhotoError) -> UploadWriter {
        try UploadWriter(url: root.appendingPathComponent("incoming/\(UUID().uuidString).part"), limit: limits.maxBytes)
    }

    /// Moves a finished upload to its content address. The same bytes uploaded before are kept once: the new copy
    /// is simply deleted. Returns the original's location and whether this call put it there.
    @discardableResult
    public func keep(_ upload: URL, sha256: String, format: ImageFormat) throws(PhotoError) -> (url: URL, isNew: Bool) {
        let destination = original(sha256: sha256, format: format)
        do {
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .internal("cannot create \(destination.deletingLastPathComponent().path): \(error)")
        }
        if FileManager.default.fileExists(atPath: destination.path) {
            unlink(upload.path)
            return (destination, false)
        }
        guard rename(upload.path, destination.path) == 0 else {
            throw .internal("cannot store the photo: \(String(cString: strerror(errno)))")
        }
        syncFolder(destination.deletingLastPathComponent())
        return (destination, true)
    }

    /// Writes a thumbnail atomically.
    public func saveThumbnail(_ data: Data, sha256: String, size: ThumbnailSize) throws(PhotoError) {
        let url = thumbnail(sha256: sha256, size: size)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try AtomicFile.write(data, to: url, permissions: 0o600)
        } catch {
            throw .internal("cannot write a thumbnail: \(error)")
        }
    }

    /// Deletes an original and its thumbnails (when no photo row refers to the hash any more).
    public func remove(sha256: String, format: ImageFormat) {
        unlink(original(sha256: sha256, format: format).path)
        for size in ThumbnailSize.allCases { unlink(thumbnail(sha256: sha256, size: size).path) }
    }

    /// Empties `incoming/`: uploads cut off by a crash or a restart.
    public func clearIncoming() {
        let folder = root.appendingPathComponent("incoming")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            unlink(folder.appendingPathComponent(name).path)
        }
    }

    /// Every stored original, as (hash, format): for removing files that no row refers to after a crash.
    public func storedOriginals() -> [(sha256: String, format: ImageFormat)] {
        let folder = root.appendingPathComponent("originals")
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return enumerator.compactMap { item in
            let name = (item as? String).map { URL(fileURLWithPath: $0).lastPathComponent } ?? ""
            let parts = name.split(separator: ".")
            guard parts.count == 2, parts[0].count == 64, let format = ImageFormat.allCases.first(where: { $0.fileExtension == parts[1] })
            else { return nil }
            return (String(parts[0]), format)
        }
    }

    private func syncFolder(_ folder: URL) {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
    }
}
