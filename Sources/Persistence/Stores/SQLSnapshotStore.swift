import Diary
import Foundation

/// `SnapshotStore` over either engine: the `snapshotRuns` table, one row per attempt, `(period, attempt)` unique so
/// that two servers claiming the same period at once make one row between them.
public struct SQLSnapshotStore: SnapshotStore {
    let database: any StoreDatabase

    public init(_ database: any StoreDatabase) { self.database = database }

    public func claim(period: Int64?, worker: String, lease: TimeInterval, retryAfter: TimeInterval) async throws -> SnapshotRun? {
        let now = database.clock.now()
        let id = UUID().uuidString.lowercased()
        let claimed = try await database.write { db -> Bool in
            try db.execute(
                """
                UPDATE snapshotRuns SET status = 'failed', finishedAt = \(now), reason = 'stopped',
                    error = 'the server taking the snapshot stopped before it finished'
                WHERE status = 'running' AND leaseUntil <= \(now)
                """)
            if try db.exists("SELECT 1 FROM snapshotRuns WHERE status = 'running'") { return false }
            var attempt: Int64?
            if let period {
                if try db.exists("SELECT 1 FROM snapshotRuns WHERE period = \(period) AND status = 'ok'") { return false }
                let since = now.addingTimeInterval(-retryAfter)
                if try db.exists("SELECT 1 FROM snapshotRuns WHERE period = \(period) AND status = 'failed' AND finishedAt > \(since)") {
                    return false
                }
                attempt = Int64(try db.int("SELECT count(*) FROM snapshotRuns WHERE period = \(period)") ?? 0) + 1
            }
            let inserted = try db.execute(
                """
                INSERT INTO snapshotRuns (id, period, attempt, worker, status, startedAt, leaseUntil)
                VALUES (\(id), \(period), \(attempt), \(worker), 'running', \(now), \(now.addingTimeInterval(lease)))
                ON CONFLICT DO NOTHING
                """)
            return inserted == 1
        }
        guard claimed else { return nil }
        return try await database.read { db in try db.row("SELECT * FROM snapshotRuns WHERE id = \(id)").map(Self.decode) }
    }

    public func renew(_ id: String, lease: TimeInterval) async throws {
        let until = database.clock.now().addingTimeInterval(lease)
        try await database.write { db in
            try db.execute("UPDATE snapshotRuns SET leaseUntil = \(until) WHERE id = \(id) AND status = 'running'")
        }
    }

    public func succeed(_ id: String, snapshotID: String, bytesAdded: Int64, filesNew: Int, verified: String) async throws {
        let now = database.clock.now()
        try await database.write { db in
            try db.execute(
                """
                UPDATE snapshotRuns SET status = 'ok', finishedAt = \(now), snapshotId = \(snapshotID), bytesAdded = \(bytesAdded),
                    filesNew = \(Int64(filesNew)), verified = \(verified)
                WHERE id = \(id)
                """)
        }
    }

    public func fail(_ id: String, error: String, reason: SnapshotRun.Reason) async throws {
        let now = database.clock.now()
        try await database.write { db in
            try db.execute(
                """
                UPDATE snapshotRuns SET status = 'failed', finishedAt = \(now), error = \(String(error.prefix(1000))), reason = \(reason.rawValue)
                WHERE id = \(id)
                """)
        }
    }

    public func recent(limit: Int) async throws -> [SnapshotRun] {
        try await database.read { db in
            try db.rows("SELECT * FROM snapshotRuns ORDER BY startedAt DESC, id DESC LIMIT \(raw: String(max(1, limit)))").map(Self.decode)
        }
    }

    public func latest() async throws -> SnapshotRun.Latest {
        try await database.read { db in
            let rows = try db.rows("""
                SELECT * FROM (SELECT 'last' AS which, snapshotRuns.* FROM snapshotRuns ORDER BY startedAt DESC, id DESC LIMIT 1) AS last
                UNION ALL
                SELECT * FROM (SELECT 'good' AS which, snapshotRuns.* FROM snapshotRuns WHERE status = 'ok'
                               ORDER BY finishedAt DESC, id DESC LIMIT 1) AS good
                """)
            var last: SnapshotRun?
            var good: SnapshotRun?
            for row in rows {
                if try row.string("which") == "last" { last = try Self.decode(row) } else { good = try Self.decode(row) }
            }
            return SnapshotRun.Latest(last: last, lastGood: good)
        }
    }

    static func decode(_ row: SQLRow) throws -> SnapshotRun {
        try readBack("snapshot run") {
            guard let status = SnapshotRun.Status(rawValue: try row.string("status")) else { throw StoreError.unreadable("snapshot run status") }
            return SnapshotRun(
                id: try row.string("id"), period: try row.optionalInt64("period"), worker: try row.string("worker"),
                startedAt: try row.timestamp("startedAt"), finishedAt: try row.optionalTimestamp("finishedAt"), status: status,
                snapshotID: try row.optionalString("snapshotId"), error: try row.optionalString("error"),
                reason: try row.optionalString("reason").flatMap(SnapshotRun.Reason.init(rawValue:)),
                bytesAdded: try row.optionalInt64("bytesAdded"), filesNew: try row.optionalInt("filesNew"),
                verified: try row.optionalString("verified"))
        }
    }
}
