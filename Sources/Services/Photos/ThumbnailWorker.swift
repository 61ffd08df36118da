import Diary
import DiaryStore
import Foundation
import Logging
import NIOPosix
import Photos
import ServiceLifecycle

/// Makes the large thumbnails after uploads, one at a time (uploads themselves decode too; a home server has few
/// cores and little memory), on NIO's thread pool. Its queue is the
/// database (`photos.thumbnails = 'pending'`), so photos left pending by a restart are finished on the next start.
public final class ThumbnailWorker: Service, Sendable {
    private let storage: any PhotoStorage
    private let store: any PhotoStore
    private let logger: Logger
    private let jobs: AsyncStream<Photo>
    private let continuation: AsyncStream<Photo>.Continuation
    static let concurrency = 1

    init(storage: any PhotoStorage, store: any PhotoStore, logger: Logger) {
        self.storage = storage
        self.store = store
        self.logger = logger
        (jobs, continuation) = AsyncStream.makeStream(of: Photo.self)
    }

    func enqueue(_ photo: Photo) { continuation.yield(photo) }

    public func run() async throws {
        for photo in try await store.pending() { continuation.yield(photo) }
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            for await photo in jobs.cancelOnGracefulShutdown() {
                if running >= Self.concurrency {
                    await group.next()
                    running -= 1
                }
                group.addTask { await self.process(photo) }
                running += 1
            }
        }
    }

    private func process(_ photo: Photo) async {
        do {
            guard let format = ImageFormat(mimeType: photo.mimeType),
                let original = try await storage.originalFile(sha256: photo.sha256, format: format)
            else { throw PhotoError.internal("the original is missing") }
            for size in [ThumbnailSize.small, .large] {
                guard try await storage.openThumbnail(sha256: photo.sha256, size: size) == nil else { continue }
                let data = try await NIOThreadPool.singleton.runIfActive { try Thumbnailer.thumbnail(of: original, size: size) }
                try await storage.putThumbnail(data, sha256: photo.sha256, size: size)
            }
            try await store.markThumbnails(photo.id, ready: true)
        } catch {
            logger.error("thumbnails failed", metadata: ["photo": "\(photo.id)", "error": "\(error)"])
            try? await store.markThumbnails(photo.id, ready: false)
        }
    }
}
