import Diary
import Logging
import ServiceLifecycle

/// Deletes for good what has been in a family's trash longer than the family keeps it (30 days unless an owner chose
/// otherwise), at start and then every hour; the photo files only the purged items used go after their rows. The
/// family's activity record loses its lines older than a year on the same round.
public struct TrashSweeper: Service {
    let trash: any TrashStore
    let activity: (any ActivityStore)?
    let photos: PhotoService
    let logger: Logger
    let every: Duration

    public init(
        trash: any TrashStore, activity: (any ActivityStore)? = nil, photos: PhotoService, logger: Logger, every: Duration = .seconds(3600)
    ) {
        self.trash = trash
        self.activity = activity
        self.photos = photos
        self.logger = logger
        self.every = every
    }

    /// One sweep; returns how many photo files went.
    @discardableResult
    public func sweep() async throws -> Int {
        let released = try await trash.sweep()
        await photos.release(released)
        if let activity { _ = try await activity.sweep() }
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
