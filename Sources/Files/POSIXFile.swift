import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX calls our durable writes share, so that no other module names the C library.
public enum POSIXFile {
    /// Writes all of `bytes` to an open descriptor, retrying short writes; throws `FileError`. (Untyped: a typed
    /// throw inside the closures callers wrap this in crashes this compiler.)
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, base + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw FileError.system("write", errno) }
            offset += written
        }
    }

    /// Flushes a file another process wrote (ffmpeg's output) to disk before it is renamed into place; throws
    /// `FileError`.
    public static func syncFile(_ file: URL) throws {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError.system("open", errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw FileError.system("fsync", errno) }
    }

    /// Makes a rename or a new file in `folder` survive a power cut.
    public static func syncFolder(_ folder: URL) {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
    }
}

/// A failed system call: what was being done and `errno`.
public enum FileError: Error, CustomStringConvertible {
    case system(String, Int32)

    public var description: String {
        switch self {
        case .system(let what, let code): "\(what): \(String(cString: strerror(code)))"
        }
    }
}
