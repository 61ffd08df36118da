import Diary
import Foundation

/// `SecondStepStore` over either engine; the secret is sealed with the database's field cipher.
public struct SQLSecondStepStore: SecondStepStore {
    let database: any StoreDatabase

    public init(_ database: any StoreDatabase) { self.database = database }

    public func begin(user: UserID, secret: String) async throws {
        let sealed = try database.cipher.seal(secret)
        try await database.write { db in
            guard try !db.exists("SELECT 1 FROM secondSteps WHERE userId = \(user) AND confirmedAt IS NOT NULL") else {
                throw StoreError.conflict(field: "secondStep", message: "the second step is on already: turn it off first")
            }
            try db.execute("DELETE FROM secondSteps WHERE userId = \(user)")
            try db.execute("INSERT INTO secondSteps (userId, secretSealed) VALUES (\(user), \(sealed))")
        }
    }

    public func secret(of user: UserID) async throws -> (secret: String, confirmed: Bool, lastStep: Int64)? {
        let row = try await database.read { db in
            try db.row("SELECT secretSealed, confirmedAt, lastStep FROM secondSteps WHERE userId = \(user)").map { row in
                (try row.data("secretSealed"), try row.optionalTimestamp("confirmedAt") != nil, try row.int64("lastStep"))
            }
        }
        guard let (sealed, confirmed, lastStep) = row else { return nil }
        return (try database.cipher.open(sealed), confirmed, lastStep)
    }

    public func confirm(user: UserID, step: Int64, recoveryDigests: [Data]) async throws -> Bool {
        let now = database.clock.now()
        return try await database.write { db in
            guard try db.execute(
                "UPDATE secondSteps SET confirmedAt = \(now), lastStep = \(step) WHERE userId = \(user) AND confirmedAt IS NULL") == 1
            else { return false }
            try Self.store(recoveryDigests, user: user, db)
            return true
        }
    }

    public func use(user: UserID, step: Int64) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                "UPDATE secondSteps SET lastStep = \(step) WHERE userId = \(user) AND confirmedAt IS NOT NULL AND lastStep < \(step)") == 1
        }
    }

    public func useRecoveryCode(user: UserID, digest: Data) async throws -> Bool {
        let now = database.clock.now()
        return try await database.write { db in
            try db.execute("UPDATE recoveryCodes SET usedAt = \(now) WHERE userId = \(user) AND digest = \(digest) AND usedAt IS NULL") == 1
        }
    }

    public func recoveryCodesLeft(of user: UserID) async throws -> Int {
        try await database.read { db in try db.int("SELECT count(*) FROM recoveryCodes WHERE userId = \(user) AND usedAt IS NULL") ?? 0 }
    }

    public func replaceRecoveryCodes(user: UserID, digests: [Data]) async throws {
        try await database.write { db in
            guard try db.exists("SELECT 1 FROM secondSteps WHERE userId = \(user) AND confirmedAt IS NOT NULL") else {
                throw StoreError.notFound(kind: "second step", id: user.description)
            }
            try Self.store(digests, user: user, db)
        }
    }

    public func remove(user: UserID) async throws {
        try await database.write { db in
            try db.execute("DELETE FROM recoveryCodes WHERE userId = \(user)")
            try db.execute("DELETE FROM secondSteps WHERE userId = \(user)")
        }
    }

    public func isConfirmed(_ user: UserID) async throws -> Bool {
        try await database.read { db in try db.exists("SELECT 1 FROM secondSteps WHERE userId = \(user) AND confirmedAt IS NOT NULL") }
    }

    private static func store(_ digests: [Data], user: UserID, _ db: any SQLSession) throws {
        try db.execute("DELETE FROM recoveryCodes WHERE userId = \(user)")
        guard !digests.isEmpty else { return }
        let rows = digests.map { digest -> SQL in "(\(user), \(digest))" }
        try db.execute("INSERT INTO recoveryCodes (userId, digest) VALUES \(SQL.joined(rows, separator: ", "))")
    }
}
