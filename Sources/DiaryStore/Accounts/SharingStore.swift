import Diary
import Foundation
import GRDB
import Persistence
import Secrets

/// `SharingStore` over the SQLite database (`DiaryDatabase`).
public struct SQLiteSharingStore: SharingStore {
    let database: DiaryDatabase

    public init(_ database: DiaryDatabase) { self.database = database }

    // MARK: Invitations

    public func invite(by member: Membership, role: Role, days: Int) async throws -> (token: String, invitation: Invitation) {
        let (token, digest) = TokenGenerator.make()
        let now = database.clock.now()
        let invitation = Invitation(
            familyID: member.familyID, role: role, createdAt: now, expiresAt: now.addingTimeInterval(Double(days) * 86_400),
            acceptedAt: nil)
        try await database.writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO invitations (id, familyId, role, digest, createdBy, createdAt, expiresAt) VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [invitation.id.sql, member.familyID.sql, role.rawValue, digest, member.userID.sql, now.stored, invitation.expiresAt.stored])
        }
        return (token, invitation)
    }

    public func invitations(family: FamilyID) async throws -> [Invitation] {
        try await database.writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM invitations WHERE familyId = ? ORDER BY createdAt DESC, id", arguments: [family.sql]
            ).map(Self.decodeInvitation)
        }
    }

    public func revokeInvitation(_ id: InvitationID, family: FamilyID) async throws {
        try await database.writer.write { db in
            try db.execute(sql: "DELETE FROM invitations WHERE id = ? AND familyId = ?", arguments: [id.sql, family.sql])
            guard db.changesCount > 0 else { throw StoreError.notFound(kind: "invitation", id: id.description) }
        }
    }

    public func openInvitation(token: String) async throws -> (invitation: Invitation, familyName: String)? {
        let now = database.clock.now()
        return try await database.writer.read { db in
            guard let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT invitations.*, families.name AS familyName FROM invitations
                    JOIN families ON families.id = invitations.familyId
                    WHERE digest = ? AND acceptedAt IS NULL AND expiresAt > ?
                    """,
                arguments: [TokenGenerator.digest(of: token), now.stored])
            else { return nil }
            return (try Self.decodeInvitation(row), try row.decode(forColumn: "familyName"))
        }
    }

    public func accept(token: String, user: UserID?, newUser: (username: String, passwordHash: String)?) async throws
        -> (user: UserID, membership: Membership)
    {
        let now = database.clock.now()
        return try await database.writer.write { db in
            guard let row = try Row.fetchOne(
                db, sql: "SELECT * FROM invitations WHERE digest = ? AND acceptedAt IS NULL AND expiresAt > ?",
                arguments: [TokenGenerator.digest(of: token), now.stored])
            else { throw StoreError.notFound(kind: "invitation", id: "in this link") }
            let invitation = try Self.decodeInvitation(row)
            let userID: UserID
            if let user {
                userID = user
            } else if let newUser {
                let made = try User(username: newUser.username, createdAt: now)
                if try Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE username = ?", arguments: [made.username]) ?? false {
                    throw StoreError.conflict(field: "username", message: "a user named '\(made.username)' already exists")
                }
                // A name that looks like another (UTS #39 skeletons) is refused: `mоm` beside `mom` (issue 33).
                if LookAlikes.looksLikeAnother(made.username, among: try String.fetchAll(db, sql: "SELECT username FROM users")) {
                    throw ValidationError(field: "username", .lookAlike)
                }
                try db.execute(
                    sql: "INSERT INTO users (id, username, passwordHash, createdAt) VALUES (?, ?, ?, ?)",
                    arguments: [made.id.sql, made.username, newUser.passwordHash, now.stored])
                userID = made.id
            } else {
                throw ValidationError(field: "username", "sign in or choose a username")
            }
            try db.execute(
                sql: "UPDATE invitations SET acceptedAt = ?, acceptedBy = ? WHERE id = ? AND acceptedAt IS NULL",
                arguments: [now.stored, userID.sql, invitation.id.sql])
            guard db.changesCount == 1 else { throw StoreError.notFound(kind: "invitation", id: "in this link") }
            try db.execute(
                sql: """
                    INSERT INTO memberships (familyId, userId, role, createdAt) VALUES (?, ?, ?, ?)
                    ON CONFLICT (familyId, userId) DO NOTHING
                    """,
                arguments: [invitation.familyID.sql, userID.sql, invitation.role.rawValue, now.stored])
            let role = try String.fetchOne(
                db, sql: "SELECT role FROM memberships WHERE familyId = ? AND userId = ?",
                arguments: [invitation.familyID.sql, userID.sql]).flatMap(Role.init(rawValue:)) ?? invitation.role
            return (userID, Membership(userID: userID, familyID: invitation.familyID, role: role))
        }
    }

    private static func decodeInvitation(_ row: Row) throws -> Invitation {
        try readBack("invitation") {
            guard let role = Role(rawValue: try row.decode(forColumn: "role")) else { throw StoreError.unreadable("role") }
            let accepted: String? = try row.decode(forColumn: "acceptedAt")
            return Invitation(
                id: try row.id("id"), familyID: try row.id("familyId"), role: role, createdAt: try row.timestamp("createdAt"),
                expiresAt: try row.timestamp("expiresAt"), acceptedAt: accepted == nil ? nil : try row.timestamp("acceptedAt"))
        }
    }

    // MARK: Share links

    public func share(by member: Membership, entries: [EntryID], label: String?, days: Int) async throws
        -> (token: String, link: ShareLink)
    {
        let (token, digest) = TokenGenerator.make()
        let now = database.clock.now()
        let link = ShareLink(
            familyID: member.familyID, label: label, entryIDs: entries, createdAt: now,
            expiresAt: now.addingTimeInterval(Double(days) * 86_400))
        try await database.writer.write { db in
            try db.execute(
                sql: "INSERT INTO shareLinks (id, familyId, digest, label, createdBy, createdAt, expiresAt) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [link.id.sql, link.familyID.sql, digest, label, member.userID.sql, now.stored, link.expiresAt.stored])
            for (position, entry) in entries.enumerated() {
                try FamilyTable.entries.requireReference(db, family: member.familyID, id: entry, field: "entryIds")
                try db.execute(
                    sql: "INSERT INTO shareLinkEntries (shareLinkId, entryId, familyId, position) VALUES (?, ?, ?, ?)",
                    arguments: [link.id.sql, entry.sql, link.familyID.sql, position])
            }
        }
        return (token, link)
    }

    public func shareLinks(family: FamilyID) async throws -> [ShareLink] {
        try await database.writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM shareLinks WHERE familyId = ? ORDER BY createdAt DESC, id", arguments: [family.sql]
            ).map { try Self.decodeLink(db, $0) }
        }
    }

    public func revokeShareLink(_ id: ShareLinkID, family: FamilyID) async throws {
        try await database.writer.write { db in
            try db.execute(sql: "DELETE FROM shareLinks WHERE id = ? AND familyId = ?", arguments: [id.sql, family.sql])
            guard db.changesCount > 0 else { throw StoreError.notFound(kind: "share link", id: id.description) }
        }
    }

    public func shareLinks(createdBy user: UserID) async throws -> [ShareLink] {
        let now = database.clock.now()
        return try await database.writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM shareLinks WHERE createdBy = ? AND expiresAt > ? ORDER BY createdAt DESC, id",
                arguments: [user.sql, now.stored]
            ).map { try Self.decodeLink(db, $0) }
        }
    }

    public func revokeShareLinks(createdBy user: UserID) async throws -> Int {
        try await database.writer.write { db in
            try db.execute(sql: "DELETE FROM shareLinks WHERE createdBy = ?", arguments: [user.sql])
            return db.changesCount
        }
    }

    public func openShareLink(token: String) async throws -> ShareLink? {
        let now = database.clock.now()
        return try await database.writer.read { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM shareLinks WHERE digest = ? AND expiresAt > ?",
                arguments: [TokenGenerator.digest(of: token), now.stored]
            ).map { try Self.decodeLink(db, $0) }
        }
    }

    private static func decodeLink(_ db: Database, _ row: Row) throws -> ShareLink {
        let id: String = try row.decode(forColumn: "id")
        let entries: [EntryID] = try Row.fetchAll(
            db, sql: "SELECT entryId FROM shareLinkEntries WHERE shareLinkId = ? ORDER BY position", arguments: [id]
        ).map { try $0.id("entryId") }
        return try readBack("share link") {
            ShareLink(
                id: try row.id("id"), familyID: try row.id("familyId"), label: try row.decode(forColumn: "label"),
                entryIDs: entries, createdAt: try row.timestamp("createdAt"), expiresAt: try row.timestamp("expiresAt"))
        }
    }

    // MARK: Calendar feeds

    public func makeFeed(by member: Membership, label: String?, includesHolidays: Bool) async throws -> (token: String, feed: CalendarFeedLink) {
        let (token, digest) = TokenGenerator.make()
        let feed = CalendarFeedLink(familyID: member.familyID, label: label, includesHolidays: includesHolidays, createdAt: database.clock.now())
        try await database.writer.write { db in
            try db.execute(
                sql: "INSERT INTO calendarFeeds (id, familyId, digest, label, includesHolidays, createdBy, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [feed.id.sql, feed.familyID.sql, digest, label, includesHolidays, member.userID.sql, feed.createdAt.stored])
        }
        return (token, feed)
    }

    public func feeds(family: FamilyID) async throws -> [CalendarFeedLink] {
        try await database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM calendarFeeds WHERE familyId = ? ORDER BY createdAt DESC, id", arguments: [family.sql])
                .map(Self.decodeFeed)
        }
    }

    public func revokeFeed(_ id: CalendarFeedID, by member: Membership) async throws {
        try await database.writer.write { db in
            try db.execute(
                sql: "DELETE FROM calendarFeeds WHERE id = ? AND familyId = ? AND (? OR createdBy = ?)",
                arguments: [id.sql, member.familyID.sql, member.role == .owner, member.userID.sql])
            guard db.changesCount > 0 else { throw StoreError.notFound(kind: "feed", id: id.description) }
        }
    }

    public func openFeed(token: String) async throws -> CalendarFeedLink? {
        try await database.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM calendarFeeds WHERE digest = ?", arguments: [TokenGenerator.digest(of: token)])
                .map(Self.decodeFeed)
        }
    }

    private static func decodeFeed(_ row: Row) throws -> CalendarFeedLink {
        try readBack("feed") {
            CalendarFeedLink(
                id: try row.id("id"), familyID: try row.id("familyId"), label: row["label"], includesHolidays: row["includesHolidays"],
                createdAt: try row.timestamp("createdAt"))
        }
    }
}
