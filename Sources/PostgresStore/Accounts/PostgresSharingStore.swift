import Diary
import DiaryStore
import Foundation
import Persistence
import Secrets

/// `SharingStore` over PostgreSQL. An invitation is used once however many servers race for it: `accept` marks it
/// used with a conditional update in a serializable transaction, and only the transaction that changed the row goes on.
public struct PostgresSharingStore: SharingStore {
    let database: PostgresDatabase

    public init(_ database: PostgresDatabase) { self.database = database }

    // MARK: Invitations

    public func invite(by member: Membership, role: Role, days: Int) async throws -> (token: String, invitation: Invitation) {
        let (token, digest) = TokenGenerator.make()
        let now = database.clock.now()
        let invitation = Invitation(
            familyID: member.familyID, role: role, createdAt: now, expiresAt: now.addingTimeInterval(Double(days) * 86_400),
            acceptedAt: nil)
        try await database.writeAsync { db in
            try await db.execute(
                "INSERT INTO invitations (id, familyId, role, digest, createdBy, createdAt, expiresAt) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [invitation.id.sql, member.familyID.sql, role.rawValue, digest, member.userID.sql, now.stored,
                    invitation.expiresAt.stored])
        }
        return (token, invitation)
    }

    public func invitations(family: FamilyID) async throws -> [Invitation] {
        try await database.readAsync { db in
            try await db.rows("SELECT * FROM invitations WHERE familyId = ? ORDER BY createdAt DESC, id", [family.sql])
        }.map(Self.decodeInvitation)
    }

    public func revokeInvitation(_ id: InvitationID, family: FamilyID) async throws {
        try await database.writeAsync { db in
            let deleted = try await db.execute(
                "DELETE FROM invitations WHERE id = ? AND familyId = ? RETURNING 1", [id.sql, family.sql])
            guard deleted > 0 else { throw StoreError.notFound(kind: "invitation", id: id.description) }
        }
    }

    public func openInvitation(token: String) async throws -> (invitation: Invitation, familyName: String)? {
        let now = database.clock.now()
        let digest = TokenGenerator.digest(of: token)
        guard let row = try await database.readAsync({ db in
            try await db.row(
                """
                SELECT invitations.*, families.name AS familyName FROM invitations
                JOIN families ON families.id = invitations.familyId
                WHERE digest = ? AND acceptedAt IS NULL AND expiresAt > ?
                """,
                [digest, now.stored])
        })
        else { return nil }
        return (try Self.decodeInvitation(row), try row.string("familyName"))
    }

    public func accept(token: String, user: UserID?, newUser: (username: String, passwordHash: String)?) async throws
        -> (user: UserID, membership: Membership)
    {
        let now = database.clock.now()
        let digest = TokenGenerator.digest(of: token)
        let made = try newUser.map { newUser in (try User(username: newUser.username, createdAt: now), newUser.passwordHash) }
        return try await database.writeAsync { db in
            guard let row = try await db.row(
                "SELECT * FROM invitations WHERE digest = ? AND acceptedAt IS NULL AND expiresAt > ?", [digest, now.stored])
            else { throw StoreError.notFound(kind: "invitation", id: "in this link") }
            let invitation = try Self.decodeInvitation(row)
            let userID: UserID
            if let user {
                userID = user
            } else if let (made, passwordHash) = made {
                if try await db.exists("SELECT 1 FROM users WHERE lower(username) = lower(?::text COLLATE \"C\")", [made.username]) {
                    throw StoreError.conflict(field: "username", message: "a user named '\(made.username)' already exists")
                }
                // A name that looks like another (UTS #39 skeletons) is refused: `mоm` beside `mom` (issue 33).
                if LookAlikes.looksLikeAnother(made.username, among: try await db.strings("SELECT username FROM users")) {
                    throw ValidationError(field: "username", .lookAlike)
                }
                try await db.execute(
                    "INSERT INTO users (id, username, passwordHash, createdAt) VALUES (?, ?, ?, ?)",
                    [made.id.sql, made.username, passwordHash, now.stored])
                userID = made.id
            } else {
                throw ValidationError(field: "username", "sign in or choose a username")
            }
            let used = try await db.execute(
                "UPDATE invitations SET acceptedAt = ?, acceptedBy = ? WHERE id = ? AND acceptedAt IS NULL RETURNING 1",
                [now.stored, userID.sql, invitation.id.sql])
            guard used == 1 else { throw StoreError.notFound(kind: "invitation", id: "in this link") }
            try await db.execute(
                """
                INSERT INTO memberships (familyId, userId, role, createdAt) VALUES (?, ?, ?, ?)
                ON CONFLICT (familyId, userId) DO NOTHING
                """,
                [invitation.familyID.sql, userID.sql, invitation.role.rawValue, now.stored])
            let role = try await db.string(
                "SELECT role FROM memberships WHERE familyId = ? AND userId = ?", [invitation.familyID.sql, userID.sql]
            ).flatMap(Role.init(rawValue:)) ?? invitation.role
            return (userID, Membership(userID: userID, familyID: invitation.familyID, role: role))
        }
    }

    private static func decodeInvitation(_ row: PostgresRecord) throws -> Invitation {
        try readBack("invitation") {
            guard let role = Role(rawValue: try row.string("role")) else { throw StoreError.unreadable("role") }
            return Invitation(
                id: try row.id("id"), familyID: try row.id("familyId"), role: role, createdAt: try row.timestamp("createdAt"),
                expiresAt: try row.timestamp("expiresAt"), acceptedAt: try row.optionalTimestamp("acceptedAt"))
        }
    }

    // MARK: Share links

    public func share(by member: Membership, entries: [EntryID], label: String?, days: Int) async throws -> (token: String, link: ShareLink) {
        let (token, digest) = TokenGenerator.make()
        let now = database.clock.now()
        let link = ShareLink(
            familyID: member.familyID, label: label, entryIDs: entries, createdAt: now,
            expiresAt: now.addingTimeInterval(Double(days) * 86_400))
        try await database.writeAsync { db in
            try await db.execute(
                "INSERT INTO shareLinks (id, familyId, digest, label, createdBy, createdAt, expiresAt) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [link.id.sql, link.familyID.sql, digest, label, member.userID.sql, now.stored, link.expiresAt.stored])
            for (position, entry) in entries.enumerated() {
                try await PostgresFamilyTable.entries.requireReference(db, family: member.familyID, id: entry, field: "entryIds")
                try await db.execute(
                    "INSERT INTO shareLinkEntries (shareLinkId, entryId, familyId, position) VALUES (?, ?, ?, ?)",
                    [link.id.sql, entry.sql, link.familyID.sql, position])
            }
        }
        return (token, link)
    }

    public func shareLinks(family: FamilyID) async throws -> [ShareLink] {
        try await database.readAsync { db in
            var links: [ShareLink] = []
            for row in try await db.rows("SELECT * FROM shareLinks WHERE familyId = ? ORDER BY createdAt DESC, id", [family.sql]) {
                links.append(try await Self.decodeLink(db, row))
            }
            return links
        }
    }

    public func revokeShareLink(_ id: ShareLinkID, family: FamilyID) async throws {
        try await database.writeAsync { db in
            let deleted = try await db.execute("DELETE FROM shareLinks WHERE id = ? AND familyId = ? RETURNING 1", [id.sql, family.sql])
            guard deleted > 0 else { throw StoreError.notFound(kind: "share link", id: id.description) }
        }
    }

    public func shareLinks(createdBy user: UserID) async throws -> [ShareLink] {
        let now = database.clock.now()
        return try await database.readAsync { db in
            var links: [ShareLink] = []
            for row in try await db.rows(
                "SELECT * FROM shareLinks WHERE createdBy = ? AND expiresAt > ? ORDER BY createdAt DESC, id", [user.sql, now.stored])
            {
                links.append(try await Self.decodeLink(db, row))
            }
            return links
        }
    }

    public func revokeShareLinks(createdBy user: UserID) async throws -> Int {
        try await database.writeAsync { db in
            try await db.execute("DELETE FROM shareLinks WHERE createdBy = ? RETURNING 1", [user.sql])
        }
    }

    public func openShareLink(token: String) async throws -> ShareLink? {
        let now = database.clock.now()
        let digest = TokenGenerator.digest(of: token)
        return try await database.readAsync { db in
            guard let row = try await db.row("SELECT * FROM shareLinks WHERE digest = ? AND expiresAt > ?", [digest, now.stored])
            else { return nil }
            return try await Self.decodeLink(db, row)
        }
    }

    private static func decodeLink(_ db: PostgresTransaction, _ row: PostgresRecord) async throws -> ShareLink {
        let id = try row.string("id")
        let entries: [EntryID] = try await db.rows(
            "SELECT entryId FROM shareLinkEntries WHERE shareLinkId = ? ORDER BY position", [id]
        ).map { try $0.id("entryId") }
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
        try await database.writeAsync { db in
            try await db.execute(
                "INSERT INTO calendarFeeds (id, familyId, digest, label, includesHolidays, createdBy, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [feed.id.sql, feed.familyID.sql, digest, label, includesHolidays, member.userID.sql, feed.createdAt.stored])
        }
        return (token, feed)
    }

    public func feeds(family: FamilyID) async throws -> [CalendarFeedLink] {
        try await database.readAsync { db in
            try await db.rows("SELECT * FROM calendarFeeds WHERE familyId = ? ORDER BY createdAt DESC, id", [family.sql])
        }.map(Self.decodeFeed)
    }

    public func revokeFeed(_ id: CalendarFeedID, by member: Membership) async throws {
        try await database.writeAsync { db in
            let deleted = try await db.execute(
                "DELETE FROM calendarFeeds WHERE id = ? AND familyId = ? AND (? OR createdBy = ?) RETURNING 1",
                [id.sql, member.familyID.sql, member.role == .owner, member.userID.sql])
            guard deleted > 0 else { throw StoreError.notFound(kind: "feed", id: id.description) }
        }
    }

    public func openFeed(token: String) async throws -> CalendarFeedLink? {
        let digest = TokenGenerator.digest(of: token)
        return try await database.readAsync { db in
            try await db.row("SELECT * FROM calendarFeeds WHERE digest = ?", [digest])
        }.map(Self.decodeFeed)
    }

    private static func decodeFeed(_ row: PostgresRecord) throws -> CalendarFeedLink {
        try readBack("feed") {
            CalendarFeedLink(
                id: try row.id("id"), familyID: try row.id("familyId"), label: try row.optionalString("label"),
                includesHolidays: try row.bool("includesHolidays"), createdAt: try row.timestamp("createdAt"))
        }
    }
}
