import Diary
import Foundation

/// `LoginFailureStore` over either engine.
public struct SQLLoginFailureStore: LoginFailureStore {
    let database: any StoreDatabase

    public init(_ database: any StoreDatabase) { self.database = database }

    static let kept: TimeInterval = 24 * 3600

    public func failures(keys: [String], since: Date) async throws -> [String: [Date]] {
        try await database.write { db in
            // Kept a day past the longest look back (wrong codes are counted over a day): a look at the last minute
            // must not forget them.
            try db.execute("DELETE FROM loginFailures WHERE failedAt < \(since.addingTimeInterval(-Self.kept))")
            var failures: [String: [Date]] = [:]
            for row in try db.rows(
                "SELECT key, failedAt FROM loginFailures WHERE key IN \(list: keys) AND failedAt >= \(since) ORDER BY failedAt")
            {
                failures[try row.string("key"), default: []].append(try row.timestamp("failedAt"))
            }
            return failures
        }
    }

    public func recordFailure(keys: [String], at time: Date) async throws {
        guard !keys.isEmpty else { return }
        let rows = keys.map { key -> SQL in "(\(key), \(time))" }
        try await database.write { db in
            try db.execute("INSERT INTO loginFailures (key, failedAt) VALUES \(SQL.joined(rows, separator: ", "))")
        }
    }

    public func clear(key: String) async throws {
        try await database.write { db in try db.execute("DELETE FROM loginFailures WHERE key = \(key)") }
    }
}
