import Diary
import Foundation
import GRDB
import Secrets

/// Families, users, memberships and API tokens.
public struct AccountStore: Sendable {
    let database: DiaryDatabase

    public init(_ database: DiaryDatabase) { self.database = database }

    /// Creates a user with a new family they own, in one transaction: either both exist afterwards or neither.
    public func createUser(username: String, passwordHash: String, familyName: String) async throws -> (User, Family) {
        let now = database.clock.now()
        let user = try User(username: username, createdAt: now)
        let family = try Family(name: familyName, createdAt: now)
        try await database.writer.write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE username = ?", arguments: [user.username]) ?? false {
                throw StoreError.conflict(field: "username", message: "a user named '\(user.username)' already exists")
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
        database.memberships.removeAll()
        return (user, family)
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
        database.memberships.removeAll()
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

    /// Issues an API token acting for `username` in a family they belong to. Returns the token (shown once).
    /// - Parameter familyName: nil picks the user's only family.
    public func createToken(username: String, familyName: String?, name: String = "cli") async throws -> (String, APIToken) {
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
                userID: UserID(userID)!, familyID: FamilyID(familyID)!, name: name, createdAt: now)
            try db.execute(
                sql: "INSERT INTO apiTokens (id, familyId, userId, digest, name, createdAt) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [token.id.sql, familyID, userID, digest, name, now.stored])
            return token
        }
        database.memberships.removeAll()
        return (token, record)
    }

    /// Who a bearer token acts for, or nil for an unknown token.
    public func membership(forToken token: String) async throws -> Membership? {
        let digest = TokenGenerator.digest(of: token)
        let now = database.clock.now()
        if let cached = database.memberships.membership(for: digest, now: now) { return cached }
        let membership = try await database.writer.read { db -> Membership? in
            guard let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT memberships.userId, memberships.familyId, memberships.role FROM apiTokens
                    JOIN memberships USING (familyId, userId) WHERE apiTokens.digest = ?
                    """,
                arguments: [digest])
            else { return nil }
            guard let role = Role(rawValue: try row.decode(forColumn: "role")) else { return nil }
            return Membership(userID: try row.id("userId"), familyID: try row.id("familyId"), role: role)
        }
        if let membership { database.memberships.remember(membership, for: digest, now: now) }
        return membership
    }

    /// The family named, or the only family in the data folder when no name is given.
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
                try Family(id: try row.id("id"), name: try row.decode(forColumn: "name"), createdAt: try row.timestamp("createdAt"))
            }
        }
    }
}
