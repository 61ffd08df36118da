import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory lock (`flock`) on `photos/.writers`, held shared by every process that may write photo files — the
/// server, and an import run from the command line beside it. Start-up's tidy deletes files that no row refers
/// to only while it holds the lock alone: an import places each photo at its content address before its one
/// transaction commits, and a server starting in between must not take those files for a crash's leftovers.
/// The kernel drops the lock when its process ends, kill -9 included.
public final class PhotoWriterLock: Sendable {
    private let descriptor: Int32

    /// Opens the lock file and holds the lock shared (waiting only while another process tidies).
    public init(file: URL) throws(PhotoError) {
        let path = file.path
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .internal("cannot open \(path): \(String(cString: strerror(errno)))") }
        guard Self.lock(descriptor, LOCK_SH) else {
            close(descriptor)
            throw .internal("cannot lock \(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(descriptor) }

    /// Runs `body` if no other process holds the lock, holding it alone meanwhile; returns whether it ran.
    @discardableResult
    public func whileAlone(_ body: () async throws -> Void) async rethrows -> Bool {
        guard Self.lock(descriptor, LOCK_EX | LOCK_NB) else { return false }
        defer { _ = Self.lock(descriptor, LOCK_SH) }
        try await body()
        return true
    }

    private static func lock(_ descriptor: Int32, _ operation: Int32) -> Bool {
        while flock(descriptor, operation) != 0 {
            guard errno == EINTR else { return false }
        }
        return true
    }
}
