import Foundation

/// One run of the scheduled snapshots (docs/backup.md, "Snapshots"): server state, not family data (not in backups).
public struct SnapshotRun: Sendable, Equatable {
    public enum Status: String, Sendable, Codable {
        case running, ok, failed
    }

    /// What kind of trouble made a run fail.
    public enum Reason: String, Sendable, Codable, CaseIterable {
        /// The target has no room left.
        case full
        /// The passphrase does not open the repository.
        case passphrase
        case unreachable
        case permission
        /// Another restic holds the repository.
        case locked
        /// restic is not installed.
        case missing
        /// The check found damage.
        case damaged
        /// The server taking it stopped before it finished.
        case stopped
        case other
    }

    /// The newest run and the newest good one (the same run when the newest succeeded).
    public struct Latest: Sendable, Equatable {
        public let last: SnapshotRun?
        public let lastGood: SnapshotRun?

        public init(last: SnapshotRun?, lastGood: SnapshotRun?) {
            self.last = last
            self.lastGood = lastGood
        }
    }

    public let id: String
    /// Which period of the schedule it belongs to (nil: asked for on the command line).
    public let period: Int64?
    public let worker: String
    public let startedAt: Date
    public let finishedAt: Date?
    public let status: Status
    /// restic's short ID of the snapshot it made.
    public let snapshotID: String?
    /// Why it failed, in words an owner can act on, and of what kind.
    public let error: String?
    public let reason: Reason?
    /// What it sent to the target, after deduplication.
    public let bytesAdded: Int64?
    public let filesNew: Int?
    /// What the check after it read back (`3/30`: a thirtieth of the data; `all`).
    public let verified: String?

    public init(
        id: String, period: Int64?, worker: String, startedAt: Date, finishedAt: Date?, status: Status, snapshotID: String?, error: String?,
        reason: Reason?, bytesAdded: Int64?, filesNew: Int?, verified: String?
    ) {
        self.reason = reason
        self.id = id
        self.period = period
        self.worker = worker
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.status = status
        self.snapshotID = snapshotID
        self.error = error
        self.bytesAdded = bytesAdded
        self.filesNew = filesNew
        self.verified = verified
    }
}

/// The snapshot runs, shared by every server of one database: one snapshot per period between them.
public protocol SnapshotStore: Sendable {
    /// Claims the run of `period` for `worker`, or nil: one succeeded in that period already, another is running (its
    /// lease not yet out), or one failed less than `retryAfter` ago. A run whose server stopped before it finished (its
    /// lease ran out) is marked failed on the way. `period` nil: a run asked for now, which waits only for a running one.
    func claim(period: Int64?, worker: String, lease: TimeInterval, retryAfter: TimeInterval) async throws -> SnapshotRun?

    /// Keeps a long run's claim.
    func renew(_ id: String, lease: TimeInterval) async throws

    func succeed(_ id: String, snapshotID: String, bytesAdded: Int64, filesNew: Int, verified: String) async throws

    func fail(_ id: String, error: String, reason: SnapshotRun.Reason) async throws

    /// The latest runs, newest first.
    func recent(limit: Int) async throws -> [SnapshotRun]

    /// The newest run and the newest that succeeded, in one read (the home page asks on every visit of an owner).
    func latest() async throws -> SnapshotRun.Latest
}
