import Diary
import Foundation
import Secrets

/// `PasskeyStore` over either engine.
public struct SQLPasskeyStore: PasskeyStore {
    let database: any StoreDatabase

    public init(_ database: any StoreDatabase) { self.database = database }

    public func add(user: UserID, _ passkey: NewPasskey) async throws -> Passkey {
        let now = database.clock.now()
        return try await database.write { db in try Self.insert(db, user: user, passkey, now: now) }
    }

    /// Stores a checked passkey inside the caller's transaction (adding one, or an account made with one).
    static func insert(_ db: any SQLSession, user: UserID, _ new: NewPasskey, now: Date) throws -> Passkey {
        guard try db.int("SELECT count(*) FROM passkeys WHERE userId = \(user)") ?? 0 < Passkey.maxPerUser else {
            throw StoreError.conflict(field: "passkey", message: "a member may have at most \(Passkey.maxPerUser) passkeys")
        }
        guard try !db.exists("SELECT 1 FROM passkeys WHERE credentialId = \(new.credentialID)") else {
            throw StoreError.conflict(field: "passkey", message: "this passkey is already added")
        }
        let passkey = Passkey(id: PasskeyID(), userID: user, name: new.name, createdAt: now, lastUsedAt: nil)
        try db.execute(
            """
            INSERT INTO passkeys (id, userId, name, credentialId, userHandle, publicKey, signCount, createdAt)
            VALUES (\(passkey.id), \(user), \(new.name), \(new.credentialID), \(new.userHandle), \(new.publicKey), \(new.signCount), \(now))
            """)
        return passkey
    }

    public func passkeys(of user: UserID) async throws -> [Passkey] {
        try await database.read { db in
            try db.rows("SELECT id, userId, name, createdAt, lastUsedAt FROM passkeys WHERE userId = \(user) ORDER BY createdAt, id")
                .map { row in try readBack("passkey") { try Self.passkey(row) } }
        }
    }

    public func credentialIDs(of user: UserID) async throws -> [Data] {
        try await database.read { db in
            try db.rows("SELECT credentialId FROM passkeys WHERE userId = \(user) ORDER BY createdAt, id").map { try $0.data("credentialId") }
        }
    }

    public func passkey(credentialID: Data) async throws -> StoredPasskey? {
        try await database.read { db in
            guard let row = try db.row("SELECT * FROM passkeys WHERE credentialId = \(credentialID)") else { return nil }
            return try readBack("passkey") {
                StoredPasskey(
                    passkey: try Self.passkey(row), credentialID: try row.data("credentialId"), userHandle: try row.data("userHandle"),
                    publicKey: try row.data("publicKey"), signCount: try row.int64("signCount"))
            }
        }
    }

    public func recordUse(_ id: PasskeyID, signCount: Int64, previous: Int64) async throws -> Bool {
        let now = database.clock.now()
        return try await database.write { db in
            try db.execute(
                "UPDATE passkeys SET signCount = \(signCount), lastUsedAt = \(now) WHERE id = \(id) AND signCount = \(previous)") == 1
        }
    }

    public func remove(_ id: PasskeyID, of user: UserID) async throws {
        try await database.write { db in
            guard try db.exists("SELECT 1 FROM passkeys WHERE id = \(id) AND userId = \(user)") else {
                throw StoreError.notFound(kind: "passkey", id: id.description)
            }
            // A password is a bcrypt hash; an account restored without one ('!') has none.
            let hasPassword = try db.string("SELECT passwordHash FROM users WHERE id = \(user)")?.hasPrefix("$2") == true
            let others = try db.int("SELECT count(*) FROM passkeys WHERE userId = \(user) AND id <> \(id)") ?? 0
            guard hasPassword || others > 0 else {
                throw StoreError.conflict(field: "passkey", message: "this is your last way to sign in: add another passkey or a password first")
            }
            try db.execute("DELETE FROM passkeys WHERE id = \(id)")
        }
    }

    public func issueChallenge(for ceremony: PasskeyCeremony, user: UserID?, userHandle: Data?) async throws -> Data {
        let challenge = TokenGenerator.randomBytes(32)
        let now = database.clock.now()
        try await database.write { db in
            try db.execute("DELETE FROM passkeyChallenges WHERE expiresAt < \(now)")
            try db.execute(
                """
                INSERT INTO passkeyChallenges (digest, ceremony, userId, userHandle, expiresAt)
                VALUES (\(Self.digest(challenge)), \(ceremony.rawValue), \(user), \(userHandle), \(now.addingTimeInterval(Passkey.challengeLifetime)))
                """)
        }
        return challenge
    }

    public func takeChallenge(_ challenge: Data, for ceremony: PasskeyCeremony, user: UserID?) async throws -> Data? {
        let now = database.clock.now()
        return try await database.write { db in
            try db.rows(
                """
                DELETE FROM passkeyChallenges WHERE digest = \(Self.digest(challenge)) AND ceremony = \(ceremony.rawValue)
                AND userId IS NOT DISTINCT FROM CAST(\(user) AS TEXT) AND expiresAt > \(now)
                RETURNING userHandle
                """
            ).first.map { try $0.optionalData("userHandle") ?? Data() }
        }
    }

    private static func digest(_ challenge: Data) -> Data { TokenGenerator.digest(of: challenge) }

    private static func passkey(_ row: SQLRow) throws -> Passkey {
        Passkey(
            id: try row.id("id"), userID: try row.id("userId"), name: try row.string("name"), createdAt: try row.timestamp("createdAt"),
            lastUsedAt: try row.optionalTimestamp("lastUsedAt"))
    }
}
