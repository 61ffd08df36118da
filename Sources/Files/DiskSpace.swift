import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// How much room the disk under a folder has: what uploads are refused by before anything of them is stored, what
/// owners are warned by, and what `saessak doctor` reports.
public struct DiskSpace: Sendable, Equatable {
    /// Bytes an unprivileged writer may still use.
    public let available: Int64
    /// The file system's size.
    public let total: Int64

    public init(available: Int64, total: Int64) {
        self.available = available
        self.total = total
    }

    /// The disk holding `url` (or its nearest folder that exists); nil when the system will not say.
    public static func at(_ url: URL) -> DiskSpace? {
        var path = url.standardizedFileURL
        while !FileManager.default.fileExists(atPath: path.path), path.pathComponents.count > 1 { path.deleteLastPathComponent() }
        var info = statvfs()
        guard statvfs(path.path, &info) == 0 else { return nil }
        let block = Int64(clamping: info.f_frsize)
        return DiskSpace(available: Int64(clamping: info.f_bavail) &* block, total: Int64(clamping: info.f_blocks) &* block)
    }

    /// Kept free beside every upload: 2 % of the disk, at most 256 MiB, so that the database and the thumbnails of
    /// what is already stored still have room when uploads stop.
    public var margin: Int64 { min(256 << 20, total / 50) }

    /// Whether `bytes` more fit and leave the margin.
    public func fits(_ bytes: Int64) -> Bool { available - max(0, bytes) >= margin }

    /// The share of the disk in use, 0–100.
    public var percentUsed: Int { total > 0 ? Int(((total - available) * 100) / total) : 0 }
}
