import Foundation
import Logging
import ServiceLifecycle

/// On object storage, the orphan sweep runs every hour as well as at start: what a server killed mid-upload left
/// behind (an object no row refers to, an unfinished multipart upload) is gone within two hours, whether or not any
/// server restarts. The folder needs none (start-up's sweep under the writer lock covers it): the server runs this
/// service only on object storage, since a service that returns ends the server.
public struct PhotoSweeper: Service {
    let photos: PhotoService
    let logger: Logger
    let every: Duration

    public init(photos: PhotoService, logger: Logger, every: Duration = .seconds(3600)) {
        self.photos = photos
        self.logger = logger
        self.every = every
    }

    public func run() async throws {
        let (photos, logger) = (photos, logger)
        await periodically(every: every, "photo sweep", logger: logger) {
            let swept = try await photos.sweep(olderThan: PhotoService.sharedGrace)
            if swept != PhotoSweep() {
                logger.info(
                    "photo sweep",
                    metadata: ["originals": "\(swept.originals)", "thumbnails": "\(swept.thumbnails)", "uploads": "\(swept.unfinishedUploads)"])
            }
        }
    }
}
