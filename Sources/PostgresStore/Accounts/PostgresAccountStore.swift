import Diary
import DiaryStore
import Foundation
import Persistence
import Secrets

/// `AccountStore` over PostgreSQL (`PostgresDatabase`). Usernames and family names compare without regard to ASCII
/// case, as SQLite's `COLLATE NOCASE` columns do: `lower(…)` on both sides, over the unique `lower(…)` indexes — the
/// argument in the columns' collation, "C" (`lower(? COLLATE "C")`): in the database's own it folded `Ö` too, which
/// the column's side never does, and `Ölga` could not sign in.
public struct PostgresAccountStore: AccountStore {
    let database: PostgresDatabase

    public init(_ database: PostgresDatabase) { self.database = database }

    public func createUser(username: String, passwordHash: String, familyName: String) async throws -> (User, Family) {
        let now = database.clock.now()
        let user = try User(username: username, createdAt: now)
        let family = try Family(name: familyName, createdAt: now)
        try await database.writeAsync { db in
            if try await db.exists("SELECT 1 FROM users WHERE lower(username) = lower(?::text COLLATE \"C\")", [user.username]) {
                throw StoreError.conflict(field: "username", message: "a user named '\(user.username)' already exists")
            }
            // A name that looks like another (UTS #39 skeletons) is refused: `mоm` beside `mom` (issue 33).
            if LookAlikes.looksLikeAnother(user.username, among: try await db.strings("SELECT username FROM users")) {
                throw ValidationError(field: "username", .lookAlike)
            }
            if try await db.exists("SELECT 1 FROM families WHERE lower(name) = lower(?::text COLLATE \"C\")", [family.name]) {
                throw StoreError.conflict(field: "family", message: "a family named '\(family.name)' already exists")
            }
            try await db.execute(
                "INSERT INTO users (id, username, passwordHash, createdAt) VALUES (?, ?, ?, ?)",
                [user.id.sql, user.username, passwordHash, now.stored])
            try await db.execute("INSERT INTO families (id, name, createdAt) VALUES (?, ?, ?)", [family.id.sql, family.name, now.stored])
            try await db.execute(
                "INSERT INTO memberships (familyId, userId, role, createdAt) VALUES (?, ?, 'owner', ?)",
                [family.id.sql, user.id.sql, now.stored])
        }
        return (user, family)
    }

    public func hasUsers() async throws -> Bool {
        try await database.readAsync { db in try await db.exists("SELECT 1 FROM users LIMIT 1") }
    }

    public func credentials(username: String) async throws -> (user: UserID, passwordHash: String)? {
        try await database.readAsync { db in
            guard let row = try await db.row("SELECT id, passwordHash FROM users WHERE lower(username) = lower(?::text COLLATE \"C\")", [username])
            else { return nil }
            return (try row.id("id"), try row.string("passwordHash"))
        }
    }

    public func passwordHash(of user: UserID) async throws -> String {
        try await database.readAsync { db in
            guard let hash = try await db.string("SELECT passwordHash FROM users WHERE id = ?", [user.sql])
            else { throw StoreError.notFound(kind: "user", id: user.description) }
            return hash
        }
    }

    public func setPasswordHash(_ hash: String, of user: UserID) async throws {
        try await database.writeAsync { db in
            try await db.execute("UPDATE users SET passwordHash = ? WHERE id = ?", [hash, user.sql])
        }
    }

    public func signOutEverywhere(_ user: UserID, passwordHash: String?) async throws {
        try await database.writeAsync { db in
            if let passwordHash {
                try await db.execute("UPDATE users SET passwordHash = ? WHERE id = ?", [passwordHash, user.sql])
            }
            try await db.execute("DELETE FROM sessions WHERE userId = ?", [user.sql])
            try await db.execute("DELETE FROM apiTokens WHERE userId = ?", [user.sql])
            try await db.execute("DELETE FROM calendarFeeds WHERE createdBy = ?", [user.sql])
        }
    }

    public func user(named username: String) async throws -> UserID {
        try await database.readAsync { db in
            guard let id = try await db.string("SELECT id FROM users WHERE lower(username) = lower(?::text COLLATE \"C\")", [username]),
                let user = UserID(id)
            else { throw StoreError.notFound(kind: "user", id: username) }
            return user
        }
    }

    public func account(_ user: UserID) async throws -> (username: String, families: [(family: Family, role: Role)]) {
        let rows = try await database.readAsync { db -> (String, [PostgresRecord]) in
            guard let username = try await db.string("SELECT username FROM users WHERE id = ?", [user.sql])
            else { throw StoreError.notFound(kind: "user", id: user.description) }
            let rows = try await db.rows(
                """
                SELECT families.*, memberships.role FROM memberships JOIN families ON families.id = memberships.familyId
                WHERE memberships.userId = ? ORDER BY memberships.createdAt, families.id
                """,
                [user.sql])
            return (username, rows)
        }
        let families = try rows.1.map { row in
            try readBack("membership") {
                guard let role = Role(rawValue: try row.string("role")) else { throw StoreError.unreadable("role") }
                return (try Validate.readingStored { try Family(id: try row.id("id"), name: try row.string("name"), createdAt: try row.timestamp("createdAt")) }, role)
            }
        }
        return (rows.0, families)
    }

    public func members(family: FamilyID) async throws -> [(username: String, role: Role)] {
        try await database.readAsync { db in
            try await db.rows(
                """
                SELECT users.username, memberships.role FROM memberships JOIN users ON users.id = memberships.userId
                WHERE memberships.familyId = ?
                ORDER BY CASE memberships.role WHEN 'owner' THEN 0 WHEN 'editor' THEN 1 ELSE 2 END, lower(users.username)
                """,
                [family.sql])
        }.map { row in
            try readBack("membership") {
                guard let role = Role(rawValue: try row.string("role")) else { throw StoreError.unreadable("role") }
                return (try row.string("username"), role)
            }
        }
    }

    @discardableResult
    public func addMember(username: String, familyName: String, role: Role) async throws -> Bool {
        let now = database.clock.now()
        return try await database.writeAsync { db -> Bool in
            guard let userID = try await db.string("SELECT id FROM users WHERE lower(username) = lower(?::text COLLATE \"C\")", [username])
            else { throw StoreError.notFound(kind: "user", id: username) }
            guard let familyID = try await db.string("SELECT id FROM families WHERE lower(name) = lower(?::text COLLATE \"C\")", [familyName])
            else { throw StoreError.notFound(kind: "family", id: familyName) }
            let existed = try await db.exists("SELECT 1 FROM memberships WHERE familyId = ? AND userId = ?", [familyID, userID])
            if existed, role != .owner {
                try await Self.requireAnotherOwner(db, family: familyID, besides: userID)
            }
            try await db.execute(
                """
                INSERT INTO memberships (familyId, userId, role, createdAt) VALUES (?, ?, ?, ?)
                ON CONFLICT (familyId, userId) DO UPDATE SET role = excluded.role
                """,
                [familyID, userID, role.rawValue, now.stored])
            return existed
        }
    }

    /// A family always keeps an owner: refuses a change that would take away its last one.
    static func requireAnotherOwner(_ db: PostgresTransaction, family: String, besides user: String) async throws {
        let others = try await db.int(
            "SELECT count(*) FROM memberships WHERE familyId = ? AND role = 'owner' AND userId <> ?", [family, user]) ?? 0
        let isOwner = try await db.exists(
            "SELECT 1 FROM memberships WHERE familyId = ? AND userId = ? AND role = 'owner'", [family, user])
        if isOwner, others == 0 {
            throw StoreError.conflict(field: "role", message: "the family would have no owner left")
        }
    }

    public func createToken(username: String, familyName: String?, name: String, role: Role?) async throws -> (String, APIToken) {
        let (token, digest) = TokenGenerator.make()
        let now = database.clock.now()
        let record = try await database.writeAsync { db -> APIToken in
            guard let userID = try await db.string("SELECT id FROM users WHERE lower(username) = lower(?::text COLLATE \"C\")", [username]),
                let user = UserID(userID)
            else { throw StoreError.notFound(kind: "user", id: username) }
            let families = try await db.strings(
                """
                SELECT families.id FROM memberships JOIN families ON families.id = memberships.familyId
                WHERE memberships.userId = ? AND (?::text IS NULL OR lower(families.name) = lower(?::text COLLATE "C"))
                """,
                [userID, familyName, familyName])
            guard let familyID = families.first, let family = FamilyID(familyID) else {
                throw StoreError.familyNeeded(
                    familyName.map { "'\(username)' is not a member of a family named '\($0)'" }
                        ?? "'\(username)' belongs to no family")
            }
            guard families.count == 1 else {
                throw StoreError.familyNeeded("'\(username)' belongs to several families: name one with --family")
            }
            let token = APIToken(userID: user, familyID: family, name: name, role: role, createdAt: now)
            try await Self.insert(db, token, digest: digest)
            return token
        }
        return (token, record)
    }

    public func createToken(for member: Membership, name: String, role: Role?) async throws -> (String, APIToken) {
        let record = try APIToken(issuedBy: member, name: name, role: role, at: database.clock.now())
        let (token, digest) = TokenGenerator.make()
        try await database.writeAsync { db in try await Self.insert(db, record, digest: digest) }
        return (token, record)
    }

    private static func insert(_ db: PostgresTransaction, _ token: APIToken, digest: Data) async throws {
        try await db.execute(
            "INSERT INTO apiTokens (id, familyId, userId, digest, name, role, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [token.id.sql, token.familyID.sql, token.userID.sql, digest, token.name, token.role?.rawValue, token.createdAt.stored])
    }

    public func tokens(of member: Membership) async throws -> [APIToken] {
        try await database.readAsync { db in
            try await db.rows(
                "SELECT * FROM apiTokens WHERE familyId = ? AND userId = ? ORDER BY createdAt DESC, id",
                [member.familyID.sql, member.userID.sql])
        }.map(Self.decodeToken)
    }

    public func revokeToken(_ id: APITokenID, by member: Membership) async throws {
        try await database.writeAsync { db in
            let deleted = try await db.execute(
                "DELETE FROM apiTokens WHERE id = ? AND familyId = ? AND (userId = ? OR ?) RETURNING 1",
                [id.sql, member.familyID.sql, member.userID.sql, member.role == .owner])
            guard deleted > 0 else { throw StoreError.notFound(kind: "token", id: id.description) }
        }
    }

    public func revokeTokens(username: String, familyName: String?, name: String) async throws -> Int {
        try await database.writeAsync { db in
            guard let userID = try await db.string("SELECT id FROM users WHERE lower(username) = lower(?::text COLLATE \"C\")", [username])
            else { throw StoreError.notFound(kind: "user", id: username) }
            return try await db.execute(
                """
                DELETE FROM apiTokens WHERE userId = ? AND name = ?
                    AND (?::text IS NULL OR familyId IN (SELECT id FROM families WHERE lower(name) = lower(?::text COLLATE "C")))
                RETURNING 1
                """,
                [userID, name, familyName, familyName])
        }
    }

    private static func decodeToken(_ row: PostgresRecord) throws -> APIToken {
        try readBack("token") {
            let role = try row.optionalString("role")
            return APIToken(
                id: try row.id("id"), userID: try row.id("userId"), familyID: try row.id("familyId"), name: try row.string("name"),
                role: try role.map { text in
                    guard let role = Role(rawValue: text) else { throw StoreError.unreadable("role '\(text)'") }
                    return role
                }, createdAt: try row.timestamp("createdAt"))
        }
    }

    public func membership(forToken token: String) async throws -> Membership? {
        let digest = TokenGenerator.digest(of: token)
        guard let row = try await database.readAsync({ db in
            try await db.row(
                """
                SELECT memberships.userId, memberships.familyId, memberships.role, apiTokens.role AS tokenRole
                FROM apiTokens JOIN memberships USING (familyId, userId) WHERE apiTokens.digest = ?
                """,
                [digest])
        })
        else { return nil }
        guard let role = Role(rawValue: try row.string("role")) else { return nil }
        let limit = try row.optionalString("tokenRole").flatMap(Role.init(rawValue:))
        return Membership(userID: try row.id("userId"), familyID: try row.id("familyId"), role: role.limited(to: limit))
    }

    public func family(named name: String?) async throws -> Family {
        let rows = try await database.readAsync { db in
            try await db.rows(
                "SELECT * FROM families WHERE ?::text IS NULL OR lower(name) = lower(?::text COLLATE \"C\") ORDER BY createdAt LIMIT 2", [name, name])
        }
        guard let row = rows.first else {
            throw StoreError.familyNeeded(name.map { "no family named '\($0)'" } ?? "no family yet: run 'saessak admin create-user'")
        }
        guard rows.count == 1 else {
            throw StoreError.familyNeeded("this data folder has several families: name one with --family")
        }
        return try readBack("family") {
            try Validate.readingStored { try Family(id: try row.id("id"), name: try row.string("name"), createdAt: try row.timestamp("createdAt")) }
        }
    }
}
