import Diary
import Foundation
import Secrets

/// `SharingStore` over either engine: invitations, share links and calendar feeds. Their secrets are shown once;
/// only SHA-256 digests are stored.
public struct SQLSharingStore: SharingStore {
    let database: any StoreDatabase

    public init(_ database: any StoreDatabase) { self.database = database }

    // MARK: Invitations

    public func invite(by member: Membership, role: Role, days: Int) async throws -> (token: String, invitation: Invitation) {
        guard Grant.invitation.isHeld(by: member.role), member.role.includes(role) else {
            throw ValidationError(field: "role", "cannot invite to '\(role.rawValue)': above your own role ('\(member.role.rawValue)')")
        }
        let (token, digest) = TokenGenerator.make()
        let now = database.clock.now()
        let invitation = try await database.write { db in
            let invitation = Invitation(
                familyID: member.familyID, role: role, createdBy: member.userID,
                createdByName: try db.string("SELECT username FROM users WHERE id = \(member.userID)"), createdAt: now,
                expiresAt: now.addingTimeInterval(Double(days) * 86_400), acceptedAt: nil)
            try db.execute(
                """
                INSERT INTO invitations (id, familyId, role, digest, createdBy, createdAt, expiresAt)
                VALUES (\(invitation.id), \(member.familyID), \(role.rawValue), \(digest), \(member.userID), \(now), \(invitation.expiresAt))
                """)
            return invitation
        }
        return (token, invitation)
    }

    public func invitations(family: FamilyID) async throws -> [Invitation] {
        try await database.read { db in
            try db.rows(
                """
                SELECT invitations.*, users.username AS creatorName FROM invitations LEFT JOIN users ON users.id = invitations.createdBy
                WHERE familyId = \(family) ORDER BY invitations.createdAt DESC, invitations.id
                """
            ).map(Self.decodeInvitation)
        }
    }

    public func revokeInvitation(_ id: InvitationID, family: FamilyID) async throws {
        try await database.write { db in
            guard try db.execute("DELETE FROM invitations WHERE id = \(id) AND familyId = \(family)") > 0 else {
                throw StoreError.notFound(kind: "invitation", id: id.description)
            }
        }
    }

    public func openInvitation(token: String) async throws -> (invitation: Invitation, familyName: String)? {
        let now = database.clock.now()
        return try await database.read { db in
            guard let row = try db.row(
                """
                SELECT invitations.*, families.name AS familyName FROM invitations JOIN families ON families.id = invitations.familyId
                WHERE digest = \(TokenGenerator.digest(of: token)) AND acceptedAt IS NULL AND expiresAt > \(now)\(Self.invitationHeld)
                """)
            else { return nil }
            return (try Self.decodeInvitation(row), try row.string("familyName"))
        }
    }

    public func accept(token: String, user: UserID?, newUser: (username: String, passwordHash: String)?, passkey: NewPasskey?) async throws
        -> (user: UserID, membership: Membership)
    {
        let now = database.clock.now()
        let digest = TokenGenerator.digest(of: token)
        let made = try newUser.map { newUser in (try User(username: newUser.username, createdAt: now), newUser.passwordHash) }
        return try await database.write { db in
            guard let row = try db.row(
                "SELECT * FROM invitations WHERE digest = \(digest) AND acceptedAt IS NULL AND expiresAt > \(now)\(Self.invitationHeld)")
            else {
                throw StoreError.notFound(kind: "invitation", id: "in this link")
            }
            let invitation = try Self.decodeInvitation(row)
            let userID: UserID
            if let user {
                userID = user
            } else if let (made, passwordHash) = made {
                try SQLAccountStore.requireNewUsername(db, made.username)
                try db.execute(
                    "INSERT INTO users (id, username, passwordHash, createdAt) VALUES (\(made.id), \(made.username), \(passwordHash), \(now))")
                if let passkey { _ = try SQLPasskeyStore.insert(db, user: made.id, passkey, now: now) }
                userID = made.id
            } else {
                throw ValidationError(field: "username", "sign in or choose a username")
            }
            let used = try db.execute(
                "UPDATE invitations SET acceptedAt = \(now), acceptedBy = \(userID) WHERE id = \(invitation.id) AND acceptedAt IS NULL")
            guard used == 1 else { throw StoreError.notFound(kind: "invitation", id: "in this link") }
            let joined = try db.execute(
                """
                INSERT INTO memberships (familyId, userId, role, createdAt) VALUES (\(invitation.familyID), \(userID), \(invitation.role.rawValue), \(now))
                ON CONFLICT (familyId, userId) DO NOTHING
                """)
            if joined > 0 {
                let name = try db.string("SELECT username FROM users WHERE id = \(userID)") ?? ""
                try SQLActivityStore.record(
                    db, family: invitation.familyID, actor: userID, at: now, action: .joined, kind: .member, subjectID: userID.description,
                    label: name, detail: invitation.role.rawValue)
            }
            let role = try db.string("SELECT role FROM memberships WHERE familyId = \(invitation.familyID) AND userId = \(userID)")
                .flatMap(Role.init(rawValue:)) ?? invitation.role
            return (userID, Membership(userID: userID, familyID: invitation.familyID, role: role))
        }
    }

    /// An invitation opens only while whoever made it may still invite (`Grant`).
    private static let invitationHeld = SQLGrants.held(.invitation, table: "invitations")

    private static func decodeInvitation(_ row: SQLRow) throws -> Invitation {
        try readBack("invitation") {
            guard let role = Role(rawValue: try row.string("role")) else { throw StoreError.unreadable("role") }
            return Invitation(
                id: try row.id("id"), familyID: try row.id("familyId"), role: role,
                createdBy: try row.optionalString("createdBy").flatMap(UserID.init), createdByName: try? row.optionalString("creatorName"),
                createdAt: try row.timestamp("createdAt"), expiresAt: try row.timestamp("expiresAt"),
                acceptedAt: try row.optionalTimestamp("acceptedAt"))
        }
    }

    // MARK: Share links

    public func share(by member: Membership, entries: [EntryID], label: String?, days: Int) async throws -> (token: String, link: ShareLink) {
        guard Grant.shareLink.isHeld(by: member.role) else {
            throw ValidationError(field: "role", "a '\(member.role.rawValue)' cannot make share links")
        }
        let (token, digest) = TokenGenerator.make()
        let now = database.clock.now()
        let link = ShareLink(
            familyID: member.familyID, label: label, entryIDs: entries, createdAt: now, expiresAt: now.addingTimeInterval(Double(days) * 86_400))
        try await database.write { db in
            try db.execute(
                """
                INSERT INTO shareLinks (id, familyId, digest, label, createdBy, createdAt, expiresAt)
                VALUES (\(link.id), \(link.familyID), \(digest), \(label), \(member.userID), \(now), \(link.expiresAt))
                """)
            for (position, entry) in entries.enumerated() {
                try FamilyTable.entries.requireReference(db, family: member.familyID, id: entry, field: "entryIds")
                try db.execute(
                    "INSERT INTO shareLinkEntries (shareLinkId, entryId, familyId, position) VALUES (\(link.id), \(entry), \(link.familyID), \(position))")
            }
        }
        return (token, link)
    }

    public func shareLinks(family: FamilyID) async throws -> [ShareLink] {
        try await database.read { db in
            try db.rows("SELECT * FROM shareLinks WHERE familyId = \(family) ORDER BY createdAt DESC, id").map { try Self.decodeLink(db, $0) }
        }
    }

    public func revokeShareLink(_ id: ShareLinkID, family: FamilyID) async throws {
        try await database.write { db in
            guard try db.execute("DELETE FROM shareLinks WHERE id = \(id) AND familyId = \(family)") > 0 else {
                throw StoreError.notFound(kind: "share link", id: id.description)
            }
        }
    }

    public func shareLinks(createdBy user: UserID) async throws -> [ShareLink] {
        let now = database.clock.now()
        return try await database.read { db in
            try db.rows("SELECT * FROM shareLinks WHERE createdBy = \(user) AND expiresAt > \(now) ORDER BY createdAt DESC, id")
                .map { try Self.decodeLink(db, $0) }
        }
    }

    public func revokeShareLinks(createdBy user: UserID) async throws -> Int {
        try await database.write { db in try db.execute("DELETE FROM shareLinks WHERE createdBy = \(user)") }
    }

    public func openShareLink(token: String) async throws -> ShareLink? {
        let now = database.clock.now()
        return try await database.read { db in
            try db.row(
                """
                SELECT * FROM shareLinks WHERE digest = \(TokenGenerator.digest(of: token)) AND expiresAt > \(now)\(SQLGrants.held(.shareLink, table: "shareLinks"))
                """)
                .map { try Self.decodeLink(db, $0) }
        }
    }

    private static func decodeLink(_ db: any SQLSession, _ row: SQLRow) throws -> ShareLink {
        let id = try row.string("id")
        let entries: [EntryID] = try db.rows("SELECT entryId FROM shareLinkEntries WHERE shareLinkId = \(id) ORDER BY position").map {
            try $0.id("entryId")
        }
        return try readBack("share link") {
            ShareLink(
                id: try row.id("id"), familyID: try row.id("familyId"), label: try row.optionalString("label"), entryIDs: entries,
                createdAt: try row.timestamp("createdAt"), expiresAt: try row.timestamp("expiresAt"))
        }
    }

    // MARK: Calendar feeds

    public func makeFeed(by member: Membership, label: String?, includesHolidays: Bool) async throws -> (token: String, feed: CalendarFeedLink) {
        let (token, digest) = TokenGenerator.make()
        let feed = CalendarFeedLink(familyID: member.familyID, label: label, includesHolidays: includesHolidays, createdAt: database.clock.now())
        try await database.write { db in
            try db.execute(
                """
                INSERT INTO calendarFeeds (id, familyId, digest, label, includesHolidays, createdBy, createdAt)
                VALUES (\(feed.id), \(feed.familyID), \(digest), \(label), \(includesHolidays), \(member.userID), \(feed.createdAt))
                """)
        }
        return (token, feed)
    }

    public func feeds(family: FamilyID) async throws -> [CalendarFeedLink] {
        try await database.read { db in
            try db.rows("SELECT * FROM calendarFeeds WHERE familyId = \(family) ORDER BY createdAt DESC, id").map(Self.decodeFeed)
        }
    }

    public func revokeFeed(_ id: CalendarFeedID, by member: Membership) async throws {
        try await database.write { db in
            let deleted = try db.execute(
                """
                DELETE FROM calendarFeeds WHERE id = \(id) AND familyId = \(member.familyID)
                    AND (\(member.role == .owner) OR createdBy = \(member.userID))
                """)
            guard deleted > 0 else { throw StoreError.notFound(kind: "feed", id: id.description) }
        }
    }

    public func openFeed(token: String) async throws -> CalendarFeedLink? {
        try await database.read { db in
            try db.row(
                """
                SELECT * FROM calendarFeeds WHERE digest = \(TokenGenerator.digest(of: token))\(SQLGrants.held(.calendarFeed, table: "calendarFeeds"))
                """
            ).map(Self.decodeFeed)
        }
    }

    private static func decodeFeed(_ row: SQLRow) throws -> CalendarFeedLink {
        try readBack("feed") {
            CalendarFeedLink(
                id: try row.id("id"), familyID: try row.id("familyId"), label: try row.optionalString("label"),
                includesHolidays: try row.bool("includesHolidays"), createdAt: try row.timestamp("createdAt"))
        }
    }
}
