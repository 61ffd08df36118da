import Diary
import Foundation
import Secrets

/// `AccountStore` over either engine. User and family names are compared without regard to ASCII case
/// (`SQLDialect.equalsIgnoringCase`), as their unique indexes are built.
public struct SQLAccountStore: AccountStore {
    let database: any StoreDatabase

    public init(_ database: any StoreDatabase) { self.database = database }

    public func createUser(username: String, passwordHash: String, familyName: String, passkey: NewPasskey?) async throws -> (User, Family) {
        let now = database.clock.now()
        let user = try User(username: username, createdAt: now)
        let family = try Family(name: familyName, createdAt: now)
        try await database.write { db in
            try Self.requireNewUsername(db, user.username)
            if try db.exists("SELECT 1 FROM families WHERE \(db.dialect.equalsIgnoringCase("name", family.name))") {
                throw StoreError.conflict(field: "family", message: "a family named '\(family.name)' already exists")
            }
            try db.execute("INSERT INTO users (id, username, passwordHash, createdAt) VALUES (\(user.id), \(user.username), \(passwordHash), \(now))")
            try db.execute("INSERT INTO families (id, name, createdAt) VALUES (\(family.id), \(family.name), \(now))")
            try db.execute("INSERT INTO memberships (familyId, userId, role, createdAt) VALUES (\(family.id), \(user.id), 'owner', \(now))")
            if let passkey { _ = try SQLPasskeyStore.insert(db, user: user.id, passkey, now: now) }
        }
        return (user, family)
    }

    /// Refuses a username that is taken, or that looks like another (UTS #39 skeletons: `mоm` beside `mom`, issue 33).
    static func requireNewUsername(_ db: any SQLSession, _ username: String) throws {
        if try db.exists("SELECT 1 FROM users WHERE \(db.dialect.equalsIgnoringCase("username", username))") {
            throw StoreError.conflict(field: "username", message: "a user named '\(username)' already exists")
        }
        if LookAlikes.looksLikeAnother(username, among: try db.strings("SELECT username FROM users")) {
            throw ValidationError(field: "username", .lookAlike)
        }
    }

    public func hasUsers() async throws -> Bool {
        try await database.read { db in try db.exists("SELECT 1 FROM users LIMIT 1") }
    }

    public func credentials(username: String) async throws -> (user: UserID, passwordHash: String)? {
        try await database.read { db in
            guard let row = try db.row("SELECT id, passwordHash FROM users WHERE \(db.dialect.equalsIgnoringCase("username", username))") else {
                return nil
            }
            return (try row.id("id"), try row.string("passwordHash"))
        }
    }

    public func passwordHash(of user: UserID) async throws -> String {
        try await database.read { db in
            guard let hash = try db.string("SELECT passwordHash FROM users WHERE id = \(user)") else {
                throw StoreError.notFound(kind: "user", id: user.description)
            }
            return hash
        }
    }

    public func setPasswordHash(_ hash: String, of user: UserID) async throws {
        try await database.write { db in try db.execute("UPDATE users SET passwordHash = \(hash) WHERE id = \(user)") }
    }

    public func signOutEverywhere(_ user: UserID, passwordHash: String? = nil) async throws {
        let now = database.clock.now()
        try await database.write { db in
            if let passwordHash { try db.execute("UPDATE users SET passwordHash = \(passwordHash) WHERE id = \(user)") }
            try db.execute("DELETE FROM sessions WHERE userId = \(user)")
            try SQLGrants.endWithSignIns(db, grantor: user, now: now)
        }
    }

    public func user(named username: String) async throws -> UserID {
        try await database.read { db in try Self.userID(db, named: username) }
    }

    private static func userID(_ db: any SQLSession, named username: String) throws -> UserID {
        guard let id = try db.string("SELECT id FROM users WHERE \(db.dialect.equalsIgnoringCase("username", username))").flatMap(UserID.init)
        else { throw StoreError.notFound(kind: "user", id: username) }
        return id
    }

    public func account(_ user: UserID) async throws -> (username: String, families: [(family: Family, role: Role)]) {
        try await database.read { db in
            guard let username = try db.string("SELECT username FROM users WHERE id = \(user)") else {
                throw StoreError.notFound(kind: "user", id: user.description)
            }
            let families = try db.rows(
                """
                SELECT families.*, memberships.role FROM memberships JOIN families ON families.id = memberships.familyId
                WHERE memberships.userId = \(user) ORDER BY memberships.createdAt, families.id
                """
            ).map { row in (try Self.decodeFamily(row), try Self.role(row, "role")) }
            return (username, families)
        }
    }

    public func members(family: FamilyID) async throws -> [(username: String, role: Role)] {
        try await database.read { db in
            try db.rows(
                """
                SELECT users.username, memberships.role FROM memberships JOIN users ON users.id = memberships.userId
                WHERE memberships.familyId = \(family)
                ORDER BY CASE memberships.role WHEN 'owner' THEN 0 WHEN 'editor' THEN 1 ELSE 2 END, \(db.dialect.ignoringCase("users.username"))
                """
            ).map { row in (try row.string("username"), try Self.role(row, "role")) }
        }
    }

    /// Makes an existing user a member of an existing family with `role`, or changes the role of one who already is.
    /// Returns whether the user was already a member.
    @discardableResult
    public func addMember(username: String, familyName: String, role: Role) async throws -> Bool {
        let now = database.clock.now()
        return try await database.write { db -> Bool in
            let userID = try Self.userID(db, named: username)
            guard let familyID = try db.string("SELECT id FROM families WHERE \(db.dialect.equalsIgnoringCase("name", familyName))") else {
                throw StoreError.notFound(kind: "family", id: familyName)
            }
            let existed = try db.exists("SELECT 1 FROM memberships WHERE familyId = \(familyID) AND userId = \(userID)")
            if existed, role != .owner { try Self.requireAnotherOwner(db, family: familyID, besides: userID) }
            try db.execute(
                """
                INSERT INTO memberships (familyId, userId, role, createdAt) VALUES (\(familyID), \(userID), \(role.rawValue), \(now))
                ON CONFLICT (familyId, userId) DO UPDATE SET role = excluded.role
                """)
            if existed, let family = FamilyID(familyID) { try SQLGrants.end(db, family: family, grantor: userID, keeping: role, now: now) }
            return existed
        }
    }

    public func setRole(family: FamilyID, username: String, role: Role, by actor: UserID?) async throws -> Role {
        let now = database.clock.now()
        return try await database.write { db -> Role in
            let (member, name, previous) = try Self.member(db, family: family, username: username)
            guard previous != role else { return previous }
            if role != .owner { try Self.requireAnotherOwner(db, family: family.sql, besides: member) }
            try db.execute("UPDATE memberships SET role = \(role.rawValue) WHERE familyId = \(family) AND userId = \(member)")
            try SQLGrants.end(db, family: family, grantor: member, keeping: role, now: now)
            try SQLActivityStore.record(
                db, family: family, actor: actor, at: now, action: .roleChanged, kind: .member, subjectID: member.description,
                label: name, detail: "\(previous.rawValue)>\(role.rawValue)")
            return previous
        }
    }

    public func removeMember(family: FamilyID, username: String, by actor: UserID?) async throws {
        let now = database.clock.now()
        try await database.write { db in
            let (member, name, _) = try Self.member(db, family: family, username: username)
            try Self.requireAnotherOwner(db, family: family.sql, besides: member)
            // What they gave ends with them (`Grant`); their sessions' hold on the family here.
            try SQLGrants.end(db, family: family, grantor: member, keeping: nil, now: now)
            try db.execute("UPDATE sessions SET familyId = NULL WHERE familyId = \(family) AND userId = \(member)")
            try db.execute("DELETE FROM memberships WHERE familyId = \(family) AND userId = \(member)")
            try SQLActivityStore.record(
                db, family: family, actor: actor, at: now, action: .removed, kind: .member, subjectID: member.description,
                label: name, detail: "")
        }
    }

    /// A member of the family by username: their ID, name as stored and role (404 for anyone else).
    private static func member(_ db: any SQLSession, family: FamilyID, username: String) throws -> (UserID, String, Role) {
        guard let row = try db.row(
            """
            SELECT users.id, users.username, memberships.role FROM memberships JOIN users ON users.id = memberships.userId
            WHERE memberships.familyId = \(family) AND \(db.dialect.equalsIgnoringCase("users.username", username))
            """)
        else { throw StoreError.notFound(kind: "member", id: username) }
        return (try row.id("id"), try row.string("username"), try Self.role(row, "role"))
    }

    /// A family always keeps an owner: refuses a change that would take away its last one.
    static func requireAnotherOwner(_ db: any SQLSession, family: String, besides user: UserID) throws {
        let others = try db.int("SELECT count(*) FROM memberships WHERE familyId = \(family) AND role = 'owner' AND userId <> \(user)") ?? 0
        let isOwner = try db.exists("SELECT 1 FROM memberships WHERE familyId = \(family) AND userId = \(user) AND role = 'owner'")
        if isOwner, others == 0 { throw StoreError.conflict(field: "role", message: "the family would have no owner left") }
    }

    public func createToken(username: String, familyName: String?, name: String = "cli", role: Role? = nil) async throws -> (String, APIToken) {
        let (token, digest) = TokenGenerator.make()
        let now = database.clock.now()
        let record = try await database.write { db -> APIToken in
            let userID = try Self.userID(db, named: username)
            let named: SQL = familyName.map { " AND \(db.dialect.equalsIgnoringCase("families.name", $0))" } ?? ""
            let families = try db.strings(
                """
                SELECT families.id FROM memberships JOIN families ON families.id = memberships.familyId
                WHERE memberships.userId = \(userID)\(named)
                """
            ).compactMap(FamilyID.init)
            guard let familyID = families.first else {
                throw StoreError.familyNeeded(
                    familyName.map { "'\(username)' is not a member of a family named '\($0)'" } ?? "'\(username)' belongs to no family")
            }
            guard families.count == 1 else { throw StoreError.familyNeeded("'\(username)' belongs to several families: name one with --family") }
            let token = APIToken(userID: userID, familyID: familyID, name: name, role: role, createdAt: now)
            try Self.insert(db, token, digest: digest)
            return token
        }
        return (token, record)
    }

    public func createToken(for member: Membership, name: String, role: Role?) async throws -> (String, APIToken) {
        let record = try APIToken(issuedBy: member, name: name, role: role, at: database.clock.now())
        let (token, digest) = TokenGenerator.make()
        try await database.write { db in try Self.insert(db, record, digest: digest) }
        return (token, record)
    }

    private static func insert(_ db: any SQLSession, _ token: APIToken, digest: Data) throws {
        try db.execute(
            """
            INSERT INTO apiTokens (id, familyId, userId, digest, name, role, createdAt)
            VALUES (\(token.id), \(token.familyID), \(token.userID), \(digest), \(token.name), \(token.role?.rawValue), \(token.createdAt))
            """)
    }

    public func tokens(of member: Membership) async throws -> [APIToken] {
        try await database.read { db in
            try db.rows("SELECT * FROM apiTokens WHERE familyId = \(member.familyID) AND userId = \(member.userID) ORDER BY createdAt DESC, id")
                .map(Self.decodeToken)
        }
    }

    public func revokeToken(_ id: APITokenID, by member: Membership) async throws {
        try await database.write { db in
            let deleted = try db.execute(
                """
                DELETE FROM apiTokens WHERE id = \(id) AND familyId = \(member.familyID)
                    AND (userId = \(member.userID) OR \(member.role == .owner))
                """)
            guard deleted > 0 else { throw StoreError.notFound(kind: "token", id: id.description) }
        }
    }

    public func revokeTokens(username: String, familyName: String?, name: String) async throws -> Int {
        try await database.write { db in
            let userID = try Self.userID(db, named: username)
            let named: SQL = familyName.map { " AND familyId IN (SELECT id FROM families WHERE \(db.dialect.equalsIgnoringCase("name", $0)))" } ?? ""
            return try db.execute("DELETE FROM apiTokens WHERE userId = \(userID) AND name = \(name)\(named)")
        }
    }

    public func membership(forToken token: String) async throws -> Membership? {
        let digest = TokenGenerator.digest(of: token)
        return try await database.read { db -> Membership? in
            guard let row = try db.row(
                """
                SELECT memberships.userId, memberships.familyId, memberships.role, apiTokens.role AS tokenRole
                FROM apiTokens JOIN memberships USING (familyId, userId) WHERE apiTokens.digest = \(digest)
                """)
            else { return nil }
            guard let role = Role(rawValue: try row.string("role")) else { return nil }
            let limit = try row.optionalString("tokenRole").flatMap(Role.init(rawValue:))
            return Membership(userID: try row.id("userId"), familyID: try row.id("familyId"), role: role.limited(to: limit))
        }
    }

    public func family(named name: String?) async throws -> Family {
        try await database.read { db in
            let named: SQL = name.map { " WHERE \(db.dialect.equalsIgnoringCase("name", $0))" } ?? ""
            let rows = try db.rows("SELECT * FROM families\(named) ORDER BY createdAt LIMIT 2")
            guard let row = rows.first else {
                throw StoreError.familyNeeded(name.map { "no family named '\($0)'" } ?? "no family yet: run 'saessak admin create-user'")
            }
            guard rows.count == 1 else { throw StoreError.familyNeeded("this data folder has several families: name one with --family") }
            return try Self.decodeFamily(row)
        }
    }

    private static func decodeFamily(_ row: SQLRow) throws -> Family {
        try readBack("family") { try Family(id: try row.id("id"), name: try row.string("name"), createdAt: try row.timestamp("createdAt")) }
    }

    private static func role(_ row: SQLRow, _ column: String) throws -> Role {
        guard let role = Role(rawValue: try row.string(column)) else { throw StoreError.unreadable("role") }
        return role
    }

    private static func decodeToken(_ row: SQLRow) throws -> APIToken {
        try readBack("token") {
            APIToken(
                id: try row.id("id"), userID: try row.id("userId"), familyID: try row.id("familyId"), name: try row.string("name"),
                role: try row.optionalString("role").map { text in
                    guard let role = Role(rawValue: text) else { throw StoreError.unreadable("role '\(text)'") }
                    return role
                }, createdAt: try row.timestamp("createdAt"))
        }
    }

    public func strongSignIn(family: FamilyID) async throws -> Bool {
        try await database.read { db in
            guard let row = try db.row("SELECT strongSignIn FROM families WHERE id = \(family)") else {
                throw StoreError.notFound(kind: "family", id: family.description)
            }
            return try row.bool("strongSignIn")
        }
    }

    public func setStrongSignIn(_ on: Bool, family: FamilyID) async throws {
        try await database.write { db in
            guard try db.execute("UPDATE families SET strongSignIn = \(on) WHERE id = \(family)") == 1 else {
                throw StoreError.notFound(kind: "family", id: family.description)
            }
        }
    }
}
