import Diary
import Foundation
import GRDB
import Persistence
import Secrets

/// `AccountStore` over the SQLite database (`DiaryDatabase`).
public struct SQLiteAccountStore: AccountStore {
    let database: DiaryDatabase

    public init(_ database: DiaryDatabase) { self.database = database }

    public func createUser(username: String, passwordHash: String, familyName: String) async throws -> (User, Family) {
        let now = database.clock.now()
        let user = try User(username: username, createdAt: now)
        let family = try Family(name: familyName, createdAt: now)
        try await database.writer.write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE username = ?", arguments: [user.username]) ?? false {
                throw StoreError.conflict(field: "username", message: "a user named '\(user.username)' already exists")
            }
            // A name that looks like another (UTS #39 skeletons) is refused: `mоm` beside `mom` (issue 33).
            if LookAlikes.looksLikeAnother(user.username, among: try String.fetchAll(db, sql: "SELECT username FROM users")) {
                throw ValidationError(field: "username", .lookAlike)
            }
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM families WHERE name = ?", arguments: [family.name]) ?? false {
                throw StoreError.conflict(field: "family", message: "a family named '\(family.name)' already exists")
            }
            try db.execute(
                sql: "INSERT INTO users (id, username, passwordHash, createdAt) VALUES (?, ?, ?, ?)",
                arguments: [user.id.sql, user.username, passwordHash, now.stored])
            try db.execute(
                sql: "INSERT INTO families (id, name, createdAt) VALUES (?, ?, ?)", arguments: [family.id.sql, family.name, now.stored])
            try db.execute(
                sql: "INSERT INTO memberships (familyId, userId, role, createdAt) VALUES (?, ?, 'owner', ?)",
                arguments: [family.id.sql, user.id.sql, now.stored])
        }
        return (user, family)
    }

    public func hasUsers() async throws -> Bool {
        try await database.writer.read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM users)") ?? false }
    }

    public func credentials(username: String) async throws -> (user: UserID, passwordHash: String)? {
        try await database.writer.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT id, passwordHash FROM users WHERE username = ?", arguments: [username])
            else { return nil }
            return (try row.id("id"), try row.decode(forColumn: "passwordHash"))
        }
    }

    public func passwordHash(of user: UserID) async throws -> String {
        try await database.writer.read { db in
            guard let hash = try String.fetchOne(db, sql: "SELECT passwordHash FROM users WHERE id = ?", arguments: [user.sql])
            else { throw StoreError.notFound(kind: "user", id: user.description) }
            return hash
        }
    }

    public func setPasswordHash(_ hash: String, of user: UserID) async throws {
        try await database.writer.write { db in
            try db.execute(sql: "UPDATE users SET passwordHash = ? WHERE id = ?", arguments: [hash, user.sql])
        }
    }

    public func signOutEverywhere(_ user: UserID, passwordHash: String? = nil) async throws {
        try await database.writer.write { db in
            if let passwordHash {
                try db.execute(sql: "UPDATE users SET passwordHash = ? WHERE id = ?", arguments: [passwordHash, user.sql])
            }
            try db.execute(sql: "DELETE FROM sessions WHERE userId = ?", arguments: [user.sql])
            try db.execute(sql: "DELETE FROM apiTokens WHERE userId = ?", arguments: [user.sql])
            try db.execute(sql: "DELETE FROM calendarFeeds WHERE createdBy = ?", arguments: [user.sql])
        }
    }

    public func user(named username: String) async throws -> UserID {
        try await database.writer.read { db in
            guard let id = try String.fetchOne(db, sql: "SELECT id FROM users WHERE username = ?", arguments: [username]),
                let user = UserID(id)
            else { throw StoreError.notFound(kind: "user", id: username) }
            return user
        }
    }

    public func account(_ user: UserID) async throws -> (username: String, families: [(family: Family, role: Role)]) {
        try await database.writer.read { db in
            guard let username = try String.fetchOne(db, sql: "SELECT username FROM users WHERE id = ?", arguments: [user.sql])
            else { throw StoreError.notFound(kind: "user", id: user.description) }
            let families = try Row.fetchAll(
                db,
                sql: """
                    SELECT families.*, memberships.role FROM memberships JOIN families ON families.id = memberships.familyId
                    WHERE memberships.userId = ? ORDER BY memberships.createdAt, families.id
                    """,
                arguments: [user.sql]
            ).map { row in
                try readBack("membership") {
                    guard let role = Role(rawValue: try row.decode(forColumn: "role")) else { throw StoreError.unreadable("role") }
                    return (try Validate.readingStored { try Family(id: try row.id("id"), name: try row.decode(forColumn: "name"), createdAt: try row.timestamp("createdAt")) }, role)
                }
            }
            return (username, families)
        }
    }

    public func members(family: FamilyID) async throws -> [(username: String, role: Role)] {
        try await database.writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT users.username, memberships.role FROM memberships JOIN users ON users.id = memberships.userId
                    WHERE memberships.familyId = ?
                    ORDER BY CASE memberships.role WHEN 'owner' THEN 0 WHEN 'editor' THEN 1 ELSE 2 END, users.username
                    """,
                arguments: [family.sql]
            ).map { row in
                try readBack("membership") {
                    guard let role = Role(rawValue: try row.decode(forColumn: "role")) else { throw StoreError.unreadable("role") }
                    return (try row.decode(forColumn: "username"), role)
                }
            }
        }
    }

    /// Makes an existing user a member of an existing family with `role`, or changes the role of one who already is.
    /// Returns whether the user was already a member.
    @discardableResult
    public func addMember(username: String, familyName: String, role: Role) async throws -> Bool {
        let now = database.clock.now()
        let existed = try await database.writer.write { db -> Bool in
            guard let userID = try String.fetchOne(db, sql: "SELECT id FROM users WHERE username = ?", arguments: [username])
            else { throw StoreError.notFound(kind: "user", id: username) }
            guard let familyID = try String.fetchOne(db, sql: "SELECT id FROM families WHERE name = ?", arguments: [familyName])
            else { throw StoreError.notFound(kind: "family", id: familyName) }
            let existed = try Bool.fetchOne(
                db, sql: "SELECT 1 FROM memberships WHERE familyId = ? AND userId = ?", arguments: [familyID, userID]) ?? false
            if existed, role != .owner {
                try Self.requireAnotherOwner(db, family: familyID, besides: userID)
            }
            try db.execute(
                sql: """
                    INSERT INTO memberships (familyId, userId, role, createdAt) VALUES (?, ?, ?, ?)
                    ON CONFLICT (familyId, userId) DO UPDATE SET role = excluded.role
                    """,
                arguments: [familyID, userID, role.rawValue, now.stored])
            return existed
        }
        return existed
    }

    /// A family always keeps an owner: refuses a change that would take away its last one.
    static func requireAnotherOwner(_ db: Database, family: String, besides user: String) throws {
        let others = try Int.fetchOne(
            db, sql: "SELECT count(*) FROM memberships WHERE familyId = ? AND role = 'owner' AND userId <> ?",
            arguments: [family, user]) ?? 0
        let isOwner = try Bool.fetchOne(
            db, sql: "SELECT 1 FROM memberships WHERE familyId = ? AND userId = ? AND role = 'owner'", arguments: [family, user])
            ?? false
        if isOwner, others == 0 {
            throw StoreError.conflict(field: "role", message: "the family would have no owner left")
        }
    }

    public func createToken(username: String, familyName: String?, name: String = "cli", role: Role? = nil) async throws
        -> (String, APIToken)
    {
        let (token, digest) = TokenGenerator.make()
        let now = database.clock.now()
        let record = try await database.writer.write { db -> APIToken in
            guard let userID: String = try String.fetchOne(db, sql: "SELECT id FROM users WHERE username = ?", arguments: [username])
            else { throw StoreError.notFound(kind: "user", id: username) }
            let families = try String.fetchAll(
                db,
                sql: """
                    SELECT families.id FROM memberships JOIN families ON families.id = memberships.familyId
                    WHERE memberships.userId = ? AND (? IS NULL OR families.name = ?)
                    """,
                arguments: [userID, familyName, familyName])
            guard let familyID = families.first else {
                throw StoreError.familyNeeded(
                    familyName.map { "'\(username)' is not a member of a family named '\($0)'" }
                        ?? "'\(username)' belongs to no family")
            }
            guard families.count == 1 else {
                throw StoreError.familyNeeded("'\(username)' belongs to several families: name one with --family")
            }
            let token = APIToken(
                userID: UserID(userID)!, familyID: FamilyID(familyID)!, name: name, role: role, createdAt: now)
            try Self.insert(db, token, digest: digest)
            return token
        }
        return (token, record)
    }

    public func createToken(for member: Membership, name: String, role: Role?) async throws -> (String, APIToken) {
        let record = try APIToken(issuedBy: member, name: name, role: role, at: database.clock.now())
        let (token, digest) = TokenGenerator.make()
        try await database.writer.write { db in try Self.insert(db, record, digest: digest) }
        return (token, record)
    }

    private static func insert(_ db: Database, _ token: APIToken, digest: Data) throws {
        try db.execute(
            sql: "INSERT INTO apiTokens (id, familyId, userId, digest, name, role, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)",
            arguments: [token.id.sql, token.familyID.sql, token.userID.sql, digest, token.name, token.role?.rawValue, token.createdAt.stored])
    }

    public func tokens(of member: Membership) async throws -> [APIToken] {
        try await database.writer.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT * FROM apiTokens WHERE familyId = ? AND userId = ? ORDER BY createdAt DESC, id",
                arguments: [member.familyID.sql, member.userID.sql]
            ).map(Self.decodeToken)
        }
    }

    public func revokeToken(_ id: APITokenID, by member: Membership) async throws {
        try await database.writer.write { db in
            try db.execute(
                sql: "DELETE FROM apiTokens WHERE id = ? AND familyId = ? AND (userId = ? OR ?)",
                arguments: [id.sql, member.familyID.sql, member.userID.sql, member.role == .owner])
            guard db.changesCount > 0 else { throw StoreError.notFound(kind: "token", id: id.description) }
        }
    }

    public func revokeTokens(username: String, familyName: String?, name: String) async throws -> Int {
        try await database.writer.write { db in
            guard let userID = try String.fetchOne(db, sql: "SELECT id FROM users WHERE username = ?", arguments: [username])
            else { throw StoreError.notFound(kind: "user", id: username) }
            try db.execute(
                sql: """
                    DELETE FROM apiTokens WHERE userId = ? AND name = ?
                        AND (? IS NULL OR familyId IN (SELECT id FROM families WHERE name = ?))
                    """,
                arguments: [userID, name, familyName, familyName])
            return db.changesCount
        }
    }

    private static func decodeToken(_ row: Row) throws -> APIToken {
        try readBack("token") {
            let role: String? = try row.decode(forColumn: "role")
            return APIToken(
                id: try row.id("id"), userID: try row.id("userId"), familyID: try row.id("familyId"),
                name: try row.decode(forColumn: "name"), role: try role.map { text in
                    guard let role = Role(rawValue: text) else { throw StoreError.unreadable("role '\(text)'") }
                    return role
                }, createdAt: try row.timestamp("createdAt"))
        }
    }

    public func membership(forToken token: String) async throws -> Membership? {
        let digest = TokenGenerator.digest(of: token)
        return try await database.writer.read { db -> Membership? in
            guard let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT memberships.userId, memberships.familyId, memberships.role, apiTokens.role AS tokenRole
                    FROM apiTokens JOIN memberships USING (familyId, userId) WHERE apiTokens.digest = ?
                    """,
                arguments: [digest])
            else { return nil }
            guard let role = Role(rawValue: try row.decode(forColumn: "role")) else { return nil }
            let limit = (try row.decode(String?.self, forColumn: "tokenRole")).flatMap(Role.init(rawValue:))
            return Membership(userID: try row.id("userId"), familyID: try row.id("familyId"), role: role.limited(to: limit))
        }
    }

    public func family(named name: String?) async throws -> Family {
        try await database.writer.read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT * FROM families WHERE ? IS NULL OR name = ? ORDER BY createdAt LIMIT 2",
                arguments: [name, name])
            guard let row = rows.first else {
                throw StoreError.familyNeeded(name.map { "no family named '\($0)'" } ?? "no family yet: run 'saessak admin create-user'")
            }
            guard rows.count == 1 else {
                throw StoreError.familyNeeded("this data folder has several families: name one with --family")
            }
            return try readBack("family") {
                try Validate.readingStored { try Family(id: try row.id("id"), name: try row.decode(forColumn: "name"), createdAt: try row.timestamp("createdAt")) }
            }
        }
    }
}
