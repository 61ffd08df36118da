import Files
import Foundation
import Logging
import Persistence
import ServiceLifecycle

/// Looks at the disk under the data folder as the server starts and every hour: from `warnAt` per cent on, the owners
/// are told by mail, once a day while it stays so (issue 66: a disk that filled up was first noticed as failed
/// writes). The home and settings pages say it to owners too.
public struct DiskWatch: Service {
    /// The share of the disk in use from which owners are warned.
    public static let warnAt = 90

    let folder: URL
    let mail: SnapshotMail
    let clock: Persistence.Clock
    let logger: Logger
    let interval: Duration

    public init(folder: URL, mail: SnapshotMail, clock: Persistence.Clock, logger: Logger, interval: Duration = .seconds(3600)) {
        self.folder = folder
        self.mail = mail
        self.clock = clock
        self.logger = logger
        self.interval = interval
    }

    public func run() async throws {
        await periodically(every: interval, first: .zero, "the disk check", logger: logger) { try await check() }
    }

    func check() async throws {
        guard let space = DiskSpace.at(folder), space.percentUsed >= Self.warnAt else { return }
        let free = ByteCountFormatter.string(fromByteCount: space.available, countStyle: .file)
        let told = try await mail.diskAlmostFull(percent: space.percentUsed, free: free, now: clock.now())
        if told > 0 { logger.warning("the disk is almost full: the owners were told by mail", metadata: ["used": "\(space.percentUsed) %"]) }
    }
}
