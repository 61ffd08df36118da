import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file so that a crash leaves either the old file or the whole new one: a temporary file in the same
/// folder, fsync, rename, fsync of the folder.
public enum AtomicFile {
    public static func write(_ data: Data, to url: URL, permissions: mode_t = 0o644) throws {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw FileError.system("create \(temporary.path)", errno) }
        var closed = false
        defer {
            if !closed { close(descriptor) }
            unlink(temporary.path)
        }
        try data.withUnsafeBytes { try POSIXFile.writeAll(descriptor, $0) }
        guard fchmod(descriptor, permissions) == 0 else { throw FileError.system("chmod", errno) }
        guard fsync(descriptor) == 0 else { throw FileError.system("fsync", errno) }
        closed = true
        guard close(descriptor) == 0 else { throw FileError.system("close", errno) }
        try move(temporary, over: url)
    }

    /// Renames a file over another in the same folder, durably (the folder is synced).
    public static func move(_ source: URL, over target: URL) throws {
        guard rename(source.path, target.path) == 0 else { throw FileError.system("rename to \(target.path)", errno) }
        POSIXFile.syncFolder(target.deletingLastPathComponent())
    }
}
