import Diary
import Foundation

/// `BookJobStore` over either engine: the `bookJobs` table, the request kept as JSON.
public struct SQLBookJobStore: BookJobStore {
    let database: any StoreDatabase

    public init(_ database: any StoreDatabase) { self.database = database }

    public func create(family: FamilyID, requestedBy: UserID?, request: BookRequest, limits: BookJob.Limits) async throws
        -> Result<BookJob, BookJob.Refusal>
    {
        let now = database.clock.now()
        let id = BookJobID()
        let json = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        let refusal = try await database.write { db -> BookJob.Refusal? in
            let waiting = try db.int("SELECT count(*) FROM bookJobs WHERE familyId = \(family) AND status IN ('queued', 'running')") ?? 0
            guard waiting < limits.making else { return .busy(limits.making) }
            let kept = try db.int("SELECT count(*) FROM bookJobs WHERE familyId = \(family) AND status = 'ready' AND expiresAt > \(now)") ?? 0
            guard kept < limits.kept else { return .full(limits.kept) }
            try db.execute(
                """
                INSERT INTO bookJobs (id, familyId, requestedBy, childId, request, status, createdAt)
                VALUES (\(id), \(family), \(requestedBy), \(request.childID), \(json), 'queued', \(now))
                """)
            return nil
        }
        if let refusal { return .failure(refusal) }
        guard let job = try await job(family: family, id: id) else { throw StoreError.unreadable("a book job just made") }
        return .success(job)
    }

    public func job(family: FamilyID, id: BookJobID) async throws -> BookJob? {
        let now = database.clock.now()
        return try await database.read { db in
            try db.row("SELECT * FROM bookJobs WHERE id = \(id) AND familyId = \(family)\(Self.notExpired(now))").map(Self.decode)
        }
    }

    public func list(family: FamilyID) async throws -> [BookJob] {
        let now = database.clock.now()
        return try await database.read { db in
            try db.rows("SELECT * FROM bookJobs WHERE familyId = \(family)\(Self.notExpired(now)) ORDER BY createdAt DESC, id DESC")
                .map(Self.decode)
        }
    }

    /// A finished book past its time (or whose maker lost the right to it, `Grant.book`) is no longer handed out,
    /// before the worker's sweep deletes it.
    private static func notExpired(_ now: Date) -> SQL { " AND NOT (status = 'ready' AND expiresAt <= \(now))" }

    public func claim(worker: String, lease: TimeInterval, maxAttempts: Int) async throws -> BookJob? {
        let now = database.clock.now()
        let claimed = try await database.write { db -> String? in
            // A job its servers died on `maxAttempts` times (a crash it causes, say) is given up, not taken again.
            try db.execute(
                """
                UPDATE bookJobs SET status = 'failed', finishedAt = \(now), worker = NULL, leaseUntil = NULL,
                    error = 'the servers making it stopped before it was finished, more than once'
                WHERE status = 'running' AND leaseUntil <= \(now) AND attempts >= \(maxAttempts)
                """)
            guard let id = try db.string(
                """
                SELECT id FROM bookJobs WHERE status = 'queued' OR (status = 'running' AND leaseUntil <= \(now))
                ORDER BY createdAt, id LIMIT 1 \(db.dialect.lockSkippingLocked("bookJobs"))
                """)
            else { return nil }
            let taken = try db.execute(
                """
                UPDATE bookJobs SET status = 'running', worker = \(worker), leaseUntil = \(now.addingTimeInterval(lease)),
                    attempts = attempts + 1, progress = 0
                WHERE id = \(id) AND (status = 'queued' OR (status = 'running' AND leaseUntil <= \(now)))
                """)
            return taken == 1 ? id : nil
        }
        guard let claimed else { return nil }
        return try await database.read { db in try db.row("SELECT * FROM bookJobs WHERE id = \(claimed)").map(Self.decode) }
    }

    public func renew(_ id: BookJobID, worker: String, lease: TimeInterval, progress: Int) async throws -> Bool {
        let until = database.clock.now().addingTimeInterval(lease)
        return try await database.write { db in
            try db.execute(
                """
                UPDATE bookJobs SET leaseUntil = \(until), progress = \(min(99, max(0, progress)))
                WHERE id = \(id) AND worker = \(worker) AND status = 'running'
                """) == 1
        }
    }

    public func finish(_ id: BookJobID, worker: String, byteCount: Int, pages: Int, expiresAt: Date) async throws -> Bool {
        let now = database.clock.now()
        return try await database.write { db in
            try db.execute(
                """
                UPDATE bookJobs SET status = 'ready', progress = 100, finishedAt = \(now), expiresAt = \(expiresAt), worker = NULL,
                    leaseUntil = NULL, byteCount = \(byteCount), pages = \(pages)
                WHERE id = \(id) AND worker = \(worker) AND status = 'running'
                """) == 1
        }
    }

    public func fail(_ id: BookJobID, worker: String, error: String) async throws {
        let now = database.clock.now()
        try await database.write { db in
            try db.execute(
                """
                UPDATE bookJobs SET status = 'failed', finishedAt = \(now), worker = NULL, leaseUntil = NULL, error = \(String(error.prefix(1000)))
                WHERE id = \(id) AND worker = \(worker) AND status = 'running'
                """)
        }
    }

    public func delete(family: FamilyID, id: BookJobID) async throws -> Bool {
        try await database.write { db in
            try db.execute("DELETE FROM bookJobs WHERE id = \(id) AND familyId = \(family)") == 1
        }
    }

    public func removeExpired(failedBefore cutoff: Date) async throws -> [BookJob] {
        let now = database.clock.now()
        return try await database.write { db in
            let due = try db.rows(
                """
                SELECT * FROM bookJobs WHERE (status = 'ready' AND expiresAt <= \(now)) OR (status = 'failed' AND finishedAt <= \(cutoff))
                """
            ).map(Self.decode)
            for job in due { try db.execute("DELETE FROM bookJobs WHERE id = \(job.id)") }
            return due
        }
    }

    static func decode(_ row: SQLRow) throws -> BookJob {
        try readBack("book job") {
            guard let id = BookJobID(try row.string("id")), let family = FamilyID(try row.string("familyId")),
                let status = BookJob.Status(rawValue: try row.string("status"))
            else { throw StoreError.unreadable("book job") }
            let request = try JSONDecoder().decode(BookRequest.self, from: Data(try row.string("request").utf8))
            return BookJob(
                id: id, familyID: family, requestedBy: try row.optionalString("requestedBy").flatMap(UserID.init), request: request,
                status: status, progress: try row.int("progress"), attempts: try row.int("attempts"), createdAt: try row.timestamp("createdAt"),
                finishedAt: try row.optionalTimestamp("finishedAt"), expiresAt: try row.optionalTimestamp("expiresAt"),
                error: try row.optionalString("error"), byteCount: try row.optionalInt("byteCount"), pages: try row.optionalInt("pages"))
        }
    }
}
