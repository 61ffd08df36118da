import Diary
import DiaryStore
import Foundation
import Persistence

/// `LoginFailureStore` over PostgreSQL: every server counts the same wrong passwords.
public struct PostgresLoginFailureStore: LoginFailureStore {
    let database: PostgresDatabase

    public init(_ database: PostgresDatabase) { self.database = database }

    public func failures(keys: [String], since: Date) async throws -> [String: [Date]] {
        let rows = try await database.writeAsync { db in
            try await db.execute("DELETE FROM loginFailures WHERE failedAt < ?", [since.stored])
            return try await db.rows("SELECT key, failedAt FROM loginFailures WHERE key = ANY(?) ORDER BY failedAt", [keys])
        }
        var failures: [String: [Date]] = [:]
        for row in rows { failures[try row.string("key"), default: []].append(try row.timestamp("failedAt")) }
        return failures
    }

    public func recordFailure(keys: [String], at time: Date) async throws {
        try await database.writeAsync { db in
            try await db.execute(
                "INSERT INTO loginFailures (key, failedAt) SELECT key, ? FROM unnest(?::text[]) AS k(key)", [time.stored, keys])
        }
    }

    public func clear(key: String) async throws {
        try await database.writeAsync { db in try await db.execute("DELETE FROM loginFailures WHERE key = ?", [key]) }
    }
}
