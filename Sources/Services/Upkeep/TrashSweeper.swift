import Diary
import Logging
import ServiceLifecycle

/// Deletes for good what has been in a family's trash longer than the family keeps it (30 days unless an owner chose
/// otherwise), at start and then every hour; the photo files only the purged items used go after their rows.
public struct TrashSweeper: Service {
    let trash: any TrashStore
    let photos: PhotoService
    let logger: Logger
    let every: Duration

    public init(trash: any TrashStore, photos: PhotoService, logger: Logger, every: Duration = .seconds(3600)) {
        self.trash = trash
        self.photos = photos
        self.logger = logger
        self.every = every
    }

    /// One sweep; returns how many photo files went.
    @discardableResult
    public func sweep() async throws -> Int {
        let released = try await trash.sweep()
        await photos.release(released)
        return released.count
    }

    public func run() async throws {
        do {
            try await sweep()
        } catch {
            logger.warning("the trash sweep failed; tried again within the hour", metadata: ["error": "\(error)"])
        }
        await periodically(every: every, "trash sweep", logger: logger) { try await sweep() }
    }
}
