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
        guard descriptor >= 0 else { throw AtomicFileError.system("create \(temporary.path)", errno) }
        var closed = false
        defer {
            if !closed { close(descriptor) }
            unlink(temporary.path)
        }
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                guard written > 0 else { throw AtomicFileError.system("write \(temporary.path)", errno) }
                offset += written
            }
        }
        guard fchmod(descriptor, permissions) == 0 else { throw AtomicFileError.system("chmod", errno) }
        guard fsync(descriptor) == 0 else { throw AtomicFileError.system("fsync", errno) }
        closed = true
        guard close(descriptor) == 0 else { throw AtomicFileError.system("close", errno) }
        try move(temporary, over: url)
    }

    /// Renames a file over another in the same folder, durably (the folder is synced).
    public static func move(_ source: URL, over target: URL) throws {
        guard rename(source.path, target.path) == 0 else { throw AtomicFileError.system("rename to \(target.path)", errno) }
        let folderDescriptor = open(target.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }
}

public enum AtomicFileError: Error, CustomStringConvertible {
    case system(String, Int32)

    public var description: String {
        switch self {
        case .system(let what, let code): "\(what): \(String(cString: strerror(code)))"
        }
    }
}
