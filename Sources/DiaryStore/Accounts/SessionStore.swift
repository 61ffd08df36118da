import Diary
import Foundation
import GRDB
import Persistence
import Secrets

/// `SessionStore` over the SQLite database (`DiaryDatabase`).
public struct SQLiteSessionStore: SessionStore {
    let database: DiaryDatabase

    /// A session ends after this long without a request…
    public static let idleLifetime: TimeInterval = 14 * 24 * 3600
    /// …and after this long in any case.
    public static let absoluteLifetime: TimeInterval = 60 * 24 * 3600
    /// `lastSeenAt` is written at most this often, so reading pages does not mean writing the database.
    public static let touchInterval: TimeInterval = 60

    public init(_ database: DiaryDatabase) { self.database = database }

    public func start(user: UserID, replacing previous: String? = nil) async throws -> (cookie: String, session: Session) {
        let (cookie, digest) = TokenGenerator.make()
        let csrf = TokenGenerator.make().token
        let now = database.clock.now()
        let id = UUID().uuidString.lowercased()
        try await database.writer.write { db in
            if let previous {
                try db.execute(sql: "DELETE FROM sessions WHERE digest = ?", arguments: [TokenGenerator.digest(of: previous)])
            }
            let family = try String.fetchOne(
                db,
                sql: "SELECT familyId FROM memberships WHERE userId = ? ORDER BY createdAt, familyId LIMIT 1",
                arguments: [user.sql])
            try db.execute(
                sql: """
                    INSERT INTO sessions (id, digest, userId, familyId, csrfToken, createdAt, lastSeenAt, expiresAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [id, digest, user.sql, family, csrf, now.stored, now.stored, now.addingTimeInterval(Self.absoluteLifetime).stored])
        }
        guard let session = try await session(forCookie: cookie) else { throw StoreError.unreadable("a session just made") }
        return (cookie, session)
    }

    public func session(forCookie cookie: String) async throws -> Session? {
        let digest = TokenGenerator.digest(of: cookie)
        let now = database.clock.now()
        let found = try await database.writer.read { db -> (session: Session, lastSeen: Date)? in
            guard let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT sessions.*, memberships.role FROM sessions
                    LEFT JOIN memberships ON memberships.familyId = sessions.familyId AND memberships.userId = sessions.userId
                    WHERE sessions.digest = ?
                    """,
                arguments: [digest])
            else { return nil }
            return try readBack("session") {
                let user: UserID = try row.id("userId")
                let family: FamilyID? = try row.optionalID("familyId")
                let role = (try row.decode(String?.self, forColumn: "role")).flatMap(Role.init(rawValue:))
                let membership = family.flatMap { family in role.map { Membership(userID: user, familyID: family, role: $0) } }
                let session = Session(
                    id: try row.decode(forColumn: "id"), userID: user, membership: membership,
                    csrfToken: try row.decode(forColumn: "csrfToken"), expiresAt: try row.timestamp("expiresAt"))
                return (session, try row.timestamp("lastSeenAt"))
            }
        }
        guard let (session, lastSeen) = found else { return nil }
        guard session.expiresAt > now, lastSeen.addingTimeInterval(Self.idleLifetime) > now else {
            try await end(session.id)
            return nil
        }
        if now.timeIntervalSince(lastSeen) > Self.touchInterval {
            try await database.writer.write { db in
                try db.execute(sql: "UPDATE sessions SET lastSeenAt = ? WHERE id = ?", arguments: [now.stored, session.id])
            }
        }
        return session
    }

    public func end(_ id: String) async throws {
        try await database.writer.write { db in try db.execute(sql: "DELETE FROM sessions WHERE id = ?", arguments: [id]) }
    }

    public func endAll(user: UserID, keeping: String? = nil) async throws {
        try await database.writer.write { db in
            try db.execute(
                sql: "DELETE FROM sessions WHERE userId = ? AND id IS NOT ?", arguments: [user.sql, keeping])
        }
    }

    public func switchFamily(_ session: Session, to family: FamilyID) async throws {
        try await database.writer.write { db in
            guard try Bool.fetchOne(
                db, sql: "SELECT 1 FROM memberships WHERE familyId = ? AND userId = ?",
                arguments: [family.sql, session.userID.sql]) ?? false
            else { throw StoreError.notFound(kind: "family", id: family.description) }
            try db.execute(sql: "UPDATE sessions SET familyId = ? WHERE id = ?", arguments: [family.sql, session.id])
        }
    }
}
