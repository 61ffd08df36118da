import Backup
import Diary
import Files
import Foundation
import Logging
import Persistence
import Photos
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// Takes one snapshot (docs/backup.md, "Snapshots"): brings the staged backup folder up to the diary's present state
/// (`BackupFolder`: the tables in one read transaction, the photos linked), hands it to restic, forgets what the
/// retention no longer keeps, and checks the repository, reading back a rotating thirtieth of its data. Each run is a
/// row of `snapshotRuns`, claimed first, so servers sharing a database take one a period between them; a failure is
/// kept with its reason for the owners' pages and `saessak snapshots status`.
public struct Snapshotter: Sendable {
    let database: any DiaryEngine
    let photos: any PhotoStorage
    public let settings: SnapshotSettings
    let folder: URL
    let worker: String
    let logger: Logger
    /// Told of each failed run after it is recorded (the owners' mail, when the server sends mail).
    public var onFailure: (@Sendable (_ reason: String, _ lastGood: SnapshotRun?) async -> Void)?

    /// `dataFolder`: where the staged folder and restic's cache live (`.snapshots/`, beside the database).
    public init(database: any DiaryEngine, photos: any PhotoStorage, settings: SnapshotSettings, dataFolder: URL, logger: Logger) {
        self.database = database
        self.photos = photos
        self.settings = settings
        folder = dataFolder.appendingPathComponent(".snapshots")
        // host|pid|nonce: a process of the same machine can tell when the claimer is gone.
        worker = "\(ProcessInfo.processInfo.hostName)|\(ProcessInfo.processInfo.processIdentifier)|\(UUID().uuidString.prefix(8))"
        self.logger = logger
    }

    var store: any SnapshotStore { database.stores.snapshots }
    var stage: URL { folder.appendingPathComponent("stage") }
    var restic: Restic { Restic(settings: settings, cache: folder.appendingPathComponent("cache")) }

    /// The period of the schedule `time` falls in.
    public func period(at time: Date) -> Int64 { Int64((time.timeIntervalSince1970 / settings.every).rounded(.down)) }

    /// Takes the snapshot of `period` unless it is taken, being taken, or failed less than an hour ago (nil then);
    /// `period` nil takes one now. Throws (after recording it) what went wrong.
    @discardableResult
    public func run(period: Int64?) async throws -> SnapshotRun? {
        try await abandonDeadRuns()
        guard let run = try await store.claim(period: period, worker: worker, lease: 600, retryAfter: 3600) else { return nil }
        let store = store
        let renewing = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(120))
                try? await store.renew(run.id, lease: 600)
            }
        }
        defer { renewing.cancel() }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try await restic.prepare()
            let now = database.clock.now()
            let stage = stage
            defer { BackupFolder.removeTables(stage) }
            try await BackupFolder.update(
                database, photos: photos, folder: stage, includeSensitive: settings.includeSensitive, app: "saessak", now: now)
            let summary = try await restic.backup(stage, time: now)
            try await restic.forget()
            let share = Self.share(at: now)
            try await restic.check(subset: share)
            try await store.succeed(run.id, snapshotID: summary.snapshot_id, bytesAdded: summary.data_added, filesNew: summary.files_new, verified: share)
            logger.info(
                "snapshot made", metadata: ["snapshot": "\(summary.snapshot_id)", "added": "\(summary.data_added)", "new files": "\(summary.files_new)"])
        } catch {
            let reason = (error as? SnapshotFailure)?.description ?? "\(error)"
            try? await store.fail(run.id, error: reason, reason: (error as? SnapshotFailure)?.reason ?? .other)
            logger.error("the snapshot failed", metadata: ["reason": "\(reason)"])
            if let onFailure { await onFailure(reason, try? await store.latest().lastGood) }
            throw error
        }
        return try await store.recent(limit: 10).first { $0.id == run.id }
    }

    /// Marks failed the runs a process of this machine claimed and did not live to finish (killed, or the machine
    /// restarted): their lease would otherwise hold the next run off for up to ten minutes.
    private func abandonDeadRuns() async throws {
        let host = ProcessInfo.processInfo.hostName
        for run in try await store.recent(limit: 5) where run.status == .running {
            let parts = run.worker.split(separator: "|")
            guard parts.count == 3, parts[0] == host, let pid = Int32(parts[1]), pid > 0, kill(pid, 0) != 0, errno == ESRCH else { continue }
            try await store.fail(run.id, error: "the process taking the snapshot stopped before it finished", reason: .stopped)
        }
    }

    /// Which thirtieth of the repository's data a check on `time`'s day reads back (`1/30` … `30/30`): a snapshot a
    /// day reads all of it every thirty days.
    static func share(at time: Date) -> String {
        let day = Int((time.timeIntervalSince1970 / 86_400).rounded(.down))
        return "\(day % 30 + 1)/30"
    }

    /// The target's snapshots, as the command line reads and restores them.
    public var repository: SnapshotRepository { SnapshotRepository(settings: settings, cache: folder.appendingPathComponent("cache")) }
}

/// The snapshots at a target, read without a diary (a restore starts from an empty folder).
public struct SnapshotRepository: Sendable {
    let restic: Restic

    /// `cache`: where restic may keep its copy of the repository's index.
    public init(settings: SnapshotSettings, cache: URL) { restic = Restic(settings: settings, cache: cache) }

    /// Reads everything back (`saessak snapshots verify --all`), or the share of `day`.
    public func verify(all: Bool, now: Date = Date()) async throws {
        try await restic.unlockStale()
        try await restic.check(subset: all ? nil : Snapshotter.share(at: now))
    }

    public struct Listed: Sendable, Encodable {
        public let id: String
        public let shortId: String
        public let time: String
    }

    /// The snapshots at the target, oldest first.
    public func list() async throws -> [Listed] {
        try await restic.unlockStale()
        return try await restic.snapshots().map { Listed(id: $0.id, shortId: $0.short_id, time: $0.time) }
    }

    /// Writes snapshot `id` (or the newest) as a backup ZIP at `destination`, to be restored like any backup.
    public func export(_ id: String?, to destination: URL) async throws {
        let scratch = destination.deletingLastPathComponent().appendingPathComponent(".saessak-snapshot-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        try await restic.unlockStale()
        try PrivateFiles.folder(scratch)
        try await restic.restore(id, into: scratch)
        guard let manifest = FileManager.default.enumerator(at: scratch, includingPropertiesForKeys: nil)?
            .compactMap({ $0 as? URL }).first(where: { $0.lastPathComponent == "manifest.json" && $0.deletingLastPathComponent().lastPathComponent == "stage" })
        else { throw SnapshotFailure("the snapshot holds no Saessak backup (no manifest.json)") }
        try BackupFolder.zip(manifest.deletingLastPathComponent(), to: destination)
        try PrivateFiles.file(destination)
    }
}

/// What the owners' pages, the API and `saessak snapshots status` say about the snapshots.
public struct SnapshotStatus: Sendable, Encodable {
    public let target: String
    public let everySeconds: Int
    public let lastGood: Run?
    public let lastRun: Run?
    /// No good snapshot in two periods (or none yet a period after the first start): the owners hear about it.
    public let late: Bool

    public struct Run: Sendable, Encodable {
        public let at: Date
        public let status: SnapshotRun.Status
        public let snapshotId: String?
        public let error: String?
        public let reason: SnapshotRun.Reason?
        public let bytesAdded: Int64?
        public let verified: String?

        init(_ run: SnapshotRun) {
            at = run.finishedAt ?? run.startedAt
            status = run.status
            snapshotId = run.snapshotID
            error = run.error
            reason = run.reason
            bytesAdded = run.bytesAdded
            verified = run.verified
        }
    }

    public static func read(_ store: any SnapshotStore, settings: SnapshotSettings, now: Date) async throws -> SnapshotStatus {
        let latest = try await store.latest()
        let (good, last) = (latest.lastGood, latest.last)
        let late = (good?.finishedAt).map { now.timeIntervalSince($0) > 2 * settings.every } ?? (last?.status == .failed)
        return SnapshotStatus(
            target: settings.description, everySeconds: Int(settings.every), lastGood: good.map(Run.init), lastRun: last.map(Run.init),
            late: late)
    }
}

/// Takes the snapshots on their schedule while the server runs: at start (a fresh server with a target takes its
/// first at once), then it looks every five minutes whether the period's snapshot is due, and tries a failed one
/// again an hour later.
public struct SnapshotScheduler: Service {
    let snapshotter: Snapshotter
    let clock: Persistence.Clock
    let logger: Logger
    let look: Duration

    public init(snapshotter: Snapshotter, clock: Persistence.Clock, logger: Logger, look: Duration = .seconds(300)) {
        self.snapshotter = snapshotter
        self.clock = clock
        self.logger = logger
        self.look = look
    }

    public func run() async throws {
        // A stage a stopped server left (killed between staging and restic) holds the diary's rows: not kept.
        BackupFolder.removeTables(snapshotter.stage)
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await snapshotter.run(period: snapshotter.period(at: clock.now()))
                } catch {
                    // Recorded with its reason already (the owners see it); tried again within the hour.
                }
                do { try await Task.sleep(for: look) } catch { return }
            }
        }
    }
}
