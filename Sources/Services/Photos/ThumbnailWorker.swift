import Diary
import Foundation
import Logging
import NIOPosix
import Persistence
import Photos
import ServiceLifecycle
import Synchronization

/// Makes the large thumbnails after uploads, one at a time (uploads themselves decode too; a home server has few
/// cores and little memory), on NIO's thread pool. Its queue is the database: it claims a pending photo
/// (`PhotoStore.claimThumbnailJobs`), so several servers on one database never make the same thumbnails, photos left
/// pending by a restart are finished on the next start, and a server that dies mid-job leaves its claim to run out
/// and the job to another. An upload here wakes it at once; others' uploads are found within `poll`.
public final class ThumbnailWorker: Service, Sendable {
    private let storage: any PhotoStorage
    private let store: any PhotoStore
    private let logger: Logger
    private let wakeup = Wakeup()
    /// Who holds a claim, in the database: this process on this machine.
    let name = "\(ProcessInfo.processInfo.hostName)/\(ProcessInfo.processInfo.processIdentifier)/\(UUID().uuidString.prefix(8))"
    /// How long a claim lasts: far longer than a thumbnail takes (a 24 MP photo's take a fraction of a second), short
    /// enough that what a killed server held is done within half a minute by another — or by itself after a restart.
    /// A job that outlasts it may be done twice, which costs time and nothing else (thumbnails are written atomically).
    static let lease: TimeInterval = 30
    static let poll: Duration = .seconds(2)

    init(storage: any PhotoStorage, store: any PhotoStore, logger: Logger) {
        self.storage = storage
        self.store = store
        self.logger = logger
    }

    func enqueue(_ photo: Photo) { wakeup.signal() }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let jobs: [Photo]
                do {
                    jobs = try await self.store.claimThumbnailJobs(worker: self.name, lease: Self.lease, limit: 1)
                } catch {
                    self.logger.warning("cannot claim thumbnail jobs", metadata: ["error": "\(error)"])
                    jobs = []
                }
                if jobs.isEmpty {
                    await self.wakeup.wait(atMost: Self.poll)
                } else {
                    for photo in jobs { await self.process(photo) }
                }
            }
        }
    }

    private func process(_ photo: Photo) async {
        do {
            guard let format = MediaFormat(mimeType: photo.mimeType),
                let original = try await storage.localOriginal(sha256: photo.sha256, format: format)
            else { throw PhotoError.internal("the original is missing") }
            for size in [ThumbnailSize.small, .large] {
                guard try await storage.openThumbnail(sha256: photo.sha256, size: size) == nil else { continue }
                let scratch = storage.scratchFile(extension: "jpg")
                let data = try await NIOThreadPool.singleton.runIfActive { try Thumbnailer.thumbnail(of: photo, original: original.url, size: size, scratch: scratch) }
                try await storage.putThumbnail(data, sha256: photo.sha256, size: size)
            }
            try await store.markThumbnails(photo.id, ready: true)
        } catch is CancellationError {
            // Shutting down: the claim runs out and the job is done after the restart.
        } catch {
            logger.error("thumbnails failed", metadata: ["photo": "\(photo.id)", "error": "\(error)"])
            try? await store.markThumbnails(photo.id, ready: false)
        }
    }
}

/// A signal one waiter sleeps on, with a time limit: `signal` wakes it, or the next `wait` returns at once.
public final class Wakeup: Sendable {
    private let state = Mutex<(pending: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    public init() {}

    public func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    public func wait(atMost limit: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.next() }
            group.addTask {
                try? await Task.sleep(for: limit)
                if !Task.isCancelled { self.signal() }
            }
            await group.next()
            group.cancelAll()
        }
    }

    private func next() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    if state.pending || Task.isCancelled {
                        state.pending = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            self.signal()
        }
    }
}
