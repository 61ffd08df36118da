import Diary
import Foundation
import Secrets

/// `SessionStore` over either engine.
public struct SQLSessionStore: SessionStore {
    let database: any StoreDatabase

    public init(_ database: any StoreDatabase) { self.database = database }

    public func start(user: UserID, replacing previous: String?, with method: SignInMethod) async throws -> (cookie: String, session: Session) {
        let (cookie, digest) = TokenGenerator.make()
        let csrf = TokenGenerator.make().token
        let now = database.clock.now()
        let id = UUID().uuidString.lowercased()
        try await database.write { db in
            if let previous { try db.execute("DELETE FROM sessions WHERE digest = \(TokenGenerator.digest(of: previous))") }
            let family = try db.string("SELECT familyId FROM memberships WHERE userId = \(user) ORDER BY createdAt, familyId LIMIT 1")
            try db.execute(
                """
                INSERT INTO sessions (id, digest, userId, familyId, csrfToken, createdAt, lastSeenAt, expiresAt, signedInWith)
                VALUES (\(id), \(digest), \(user), \(family), \(csrf), \(now), \(now), \(now.addingTimeInterval(Session.absoluteLifetime)),
                    \(method.rawValue))
                """)
        }
        guard let session = try await session(forCookie: cookie) else { throw StoreError.unreadable("a session just made") }
        return (cookie, session)
    }

    public func session(forCookie cookie: String) async throws -> Session? {
        let digest = TokenGenerator.digest(of: cookie)
        let now = database.clock.now()
        let found = try await database.read { db -> (session: Session, lastSeen: Date)? in
            guard let row = try db.row(
                """
                SELECT sessions.*, memberships.role, families.strongSignIn,
                    (EXISTS (SELECT 1 FROM passkeys WHERE passkeys.userId = sessions.userId)
                        OR EXISTS (SELECT 1 FROM secondSteps WHERE secondSteps.userId = sessions.userId AND confirmedAt IS NOT NULL))
                        AS hasStrongMethod
                FROM sessions
                LEFT JOIN memberships ON memberships.familyId = sessions.familyId AND memberships.userId = sessions.userId
                LEFT JOIN families ON families.id = sessions.familyId
                WHERE sessions.digest = \(digest)
                """)
            else { return nil }
            return try readBack("session") {
                let user: UserID = try row.id("userId")
                let family: FamilyID? = try row.optionalID("familyId")
                let role = try row.optionalString("role").flatMap(Role.init(rawValue:))
                let membership = family.flatMap { family in role.map { Membership(userID: user, familyID: family, role: $0) } }
                let method = SignInMethod(rawValue: try row.string("signedInWith")) ?? .password
                let session = Session(
                    id: try row.string("id"), userID: user, membership: membership, csrfToken: try row.string("csrfToken"),
                    expiresAt: try row.timestamp("expiresAt"),
                    signedInWith: method,
                    mustStrengthen: try row.optionalBool("strongSignIn") == true && (role == .owner || role == .editor) && !method.isStrong,
                    hasStrongMethod: try row.bool("hasStrongMethod"))
                return (session, try row.timestamp("lastSeenAt"))
            }
        }
        guard let (session, lastSeen) = found else { return nil }
        guard session.expiresAt > now, lastSeen.addingTimeInterval(Session.idleLifetime) > now else {
            try await end(session.id)
            return nil
        }
        if now.timeIntervalSince(lastSeen) > Session.touchInterval {
            try await database.write { db in
                try db.execute("UPDATE sessions SET lastSeenAt = \(now) WHERE id = \(session.id) AND lastSeenAt < \(now)")
            }
        }
        return session
    }

    public func end(_ id: String) async throws {
        try await database.write { db in try db.execute("DELETE FROM sessions WHERE id = \(id)") }
    }

    public func endAll(user: UserID, keeping: String? = nil) async throws {
        try await database.write { db in
            try db.execute("DELETE FROM sessions WHERE userId = \(user) AND id IS DISTINCT FROM CAST(\(keeping) AS TEXT)")
        }
    }

    public func switchFamily(_ session: Session, to family: FamilyID) async throws {
        try await database.write { db in
            guard try db.exists("SELECT 1 FROM memberships WHERE familyId = \(family) AND userId = \(session.userID)") else {
                throw StoreError.notFound(kind: "family", id: family.description)
            }
            try db.execute("UPDATE sessions SET familyId = \(family) WHERE id = \(session.id)")
        }
    }

    public func recognise(device given: String?, user: UserID, label: String) async throws -> (cookie: String, isNew: Bool) {
        let now = database.clock.now()
        return try await database.write { db in
            if let given {
                let touched = try db.execute(
                    "UPDATE devices SET lastSeenAt = \(now) WHERE digest = \(TokenGenerator.digest(of: given)) AND userId = \(user)")
                if touched > 0 { return (given, false) }
            }
            let (cookie, digest) = TokenGenerator.make()
            let id = UUID().uuidString.lowercased()
            try db.execute(
                """
                INSERT INTO devices (id, userId, digest, label, firstSeenAt, lastSeenAt)
                VALUES (\(id), \(user), \(digest), \(Activity.label(label)), \(now), \(now))
                """)
            for family in try db.strings("SELECT familyId FROM memberships WHERE userId = \(user)").compactMap(FamilyID.init) {
                try SQLActivityStore.record(
                    db, family: family, actor: user, at: now, action: .signedIn, kind: .device, subjectID: id, label: label, detail: "")
            }
            return (cookie, true)
        }
    }

    public func label(session: String, _ label: String) async throws {
        try await database.write { db in try db.execute("UPDATE sessions SET label = \(Activity.label(label)) WHERE id = \(session)") }
    }

    public func sessions(of user: UserID) async throws -> [SessionSummary] {
        let now = database.clock.now()
        return try await database.read { db in
            try db.rows(
                """
                SELECT id, label, signedInWith, createdAt, lastSeenAt FROM sessions
                WHERE userId = \(user) AND expiresAt > \(now) AND lastSeenAt > \(now.addingTimeInterval(-Session.idleLifetime))
                ORDER BY lastSeenAt DESC, id
                """
            ).map { row in
                try readBack("session") {
                    SessionSummary(
                        id: try row.string("id"), label: try row.string("label"),
                        signedInWith: SignInMethod(rawValue: try row.string("signedInWith")) ?? .password,
                        createdAt: try row.timestamp("createdAt"), lastSeenAt: try row.timestamp("lastSeenAt"))
                }
            }
        }
    }

    public func end(_ id: String, of user: UserID) async throws -> Bool {
        try await database.write { db in try db.execute("DELETE FROM sessions WHERE id = \(id) AND userId = \(user)") == 1 }
    }
}
