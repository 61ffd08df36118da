import Diary
import DiaryStore
import Foundation
import Persistence
import Secrets

/// `SessionStore` over PostgreSQL: sessions and their CSRF tokens are rows, so any server behind a load balancer knows
/// every browser's session. Lifetimes are `SQLiteSessionStore`'s.
public struct PostgresSessionStore: SessionStore {
    let database: PostgresDatabase

    public init(_ database: PostgresDatabase) { self.database = database }

    public func start(user: UserID, replacing previous: String?) async throws -> (cookie: String, session: Session) {
        let (cookie, digest) = TokenGenerator.make()
        let csrf = TokenGenerator.make().token
        let now = database.clock.now()
        let id = UUID().uuidString.lowercased()
        let previousDigest = previous.map(TokenGenerator.digest(of:))
        try await database.writeAsync { db in
            if let previousDigest {
                try await db.execute("DELETE FROM sessions WHERE digest = ?", [previousDigest])
            }
            let family = try await db.string(
                "SELECT familyId FROM memberships WHERE userId = ? ORDER BY createdAt, familyId LIMIT 1", [user.sql])
            try await db.execute(
                """
                INSERT INTO sessions (id, digest, userId, familyId, csrfToken, createdAt, lastSeenAt, expiresAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [id, digest, user.sql, family, csrf, now.stored, now.stored,
                    now.addingTimeInterval(SQLiteSessionStore.absoluteLifetime).stored])
        }
        guard let session = try await session(forCookie: cookie) else { throw StoreError.unreadable("a session just made") }
        return (cookie, session)
    }

    public func session(forCookie cookie: String) async throws -> Session? {
        let digest = TokenGenerator.digest(of: cookie)
        let now = database.clock.now()
        guard let row = try await database.readAsync({ db in
            try await db.row(
                """
                SELECT sessions.*, memberships.role FROM sessions
                LEFT JOIN memberships ON memberships.familyId = sessions.familyId AND memberships.userId = sessions.userId
                WHERE sessions.digest = ?
                """,
                [digest])
        })
        else { return nil }
        let (session, lastSeen) = try readBack("session") {
            let user: UserID = try row.id("userId")
            let family: FamilyID? = try row.optionalID("familyId")
            let role = try row.optionalString("role").flatMap(Role.init(rawValue:))
            let membership = family.flatMap { family in role.map { Membership(userID: user, familyID: family, role: $0) } }
            let session = Session(
                id: try row.string("id"), userID: user, membership: membership, csrfToken: try row.string("csrfToken"),
                expiresAt: try row.timestamp("expiresAt"))
            return (session, try row.timestamp("lastSeenAt"))
        }
        guard session.expiresAt > now, lastSeen.addingTimeInterval(SQLiteSessionStore.idleLifetime) > now else {
            try await end(session.id)
            return nil
        }
        if now.timeIntervalSince(lastSeen) > SQLiteSessionStore.touchInterval {
            try await database.writeAsync { db in
                try await db.execute("UPDATE sessions SET lastSeenAt = ? WHERE id = ? AND lastSeenAt < ?", [now.stored, session.id, now.stored])
            }
        }
        return session
    }

    public func end(_ id: String) async throws {
        try await database.writeAsync { db in try await db.execute("DELETE FROM sessions WHERE id = ?", [id]) }
    }

    public func endAll(user: UserID, keeping: String?) async throws {
        try await database.writeAsync { db in
            try await db.execute("DELETE FROM sessions WHERE userId = ? AND id IS DISTINCT FROM ?", [user.sql, keeping])
        }
    }

    public func switchFamily(_ session: Session, to family: FamilyID) async throws {
        try await database.writeAsync { db in
            guard try await db.exists(
                "SELECT 1 FROM memberships WHERE familyId = ? AND userId = ?", [family.sql, session.userID.sql])
            else { throw StoreError.notFound(kind: "family", id: family.description) }
            try await db.execute("UPDATE sessions SET familyId = ? WHERE id = ?", [family.sql, session.id])
        }
    }
}
