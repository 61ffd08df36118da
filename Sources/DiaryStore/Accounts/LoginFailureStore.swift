import Diary
import Foundation
import GRDB
import Persistence

/// `LoginFailureStore` over the SQLite database.
public struct SQLiteLoginFailureStore: LoginFailureStore {
    let database: DiaryDatabase

    public init(_ database: DiaryDatabase) { self.database = database }

    public func failures(keys: [String], since: Date) async throws -> [String: [Date]] {
        try await database.writer.write { db in
            try db.execute(sql: "DELETE FROM loginFailures WHERE failedAt < ?", arguments: [since.stored])
            var failures: [String: [Date]] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT key, failedAt FROM loginFailures WHERE key IN (\(databaseQuestionMarks(count: keys.count))) ORDER BY failedAt",
                arguments: StatementArguments(keys))
            {
                failures[row["key"], default: []].append(try row.timestamp("failedAt"))
            }
            return failures
        }
    }

    public func recordFailure(keys: [String], at time: Date) async throws {
        try await database.writer.write { db in
            for key in keys {
                try db.execute(sql: "INSERT INTO loginFailures (key, failedAt) VALUES (?, ?)", arguments: [key, time.stored])
            }
        }
    }

    public func clear(key: String) async throws {
        try await database.writer.write { db in try db.execute(sql: "DELETE FROM loginFailures WHERE key = ?", arguments: [key]) }
    }
}
