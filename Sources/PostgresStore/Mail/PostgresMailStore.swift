import Diary
import DiaryStore
import Foundation
import Persistence

/// `MailStore` over PostgreSQL, with the statements of `MailSQL`. Several servers may send from one database: a
/// message is claimed with `FOR UPDATE SKIP LOCKED`, so each goes to one sender.
public struct PostgresMailStore: MailStore {
    let database: PostgresDatabase

    public init(_ database: PostgresDatabase) { self.database = database }

    public func choice(family: FamilyID, user: UserID) async throws -> MailChoice {
        guard let row = try await database.readAsync({ db in try await db.row(MailSQL.choice, [family.sql, user.sql]) }) else {
            throw StoreError.notFound(kind: "member", id: user.description)
        }
        return try Self.choice(row)
    }

    public func setChoice(_ choice: MailChoice, family: FamilyID, user: UserID) async throws {
        let now = database.clock.now().stored
        let changed = try await database.writeAsync { db in
            try await db.execute(
                MailSQL.setChoice + " RETURNING userId",
                [choice.address, choice.digest.rawValue, choice.reminders, choice.language, choice.digest.rawValue, now, family.sql, user.sql])
        }
        guard changed == 1 else { throw StoreError.notFound(kind: "member", id: user.description) }
    }

    public func recipients() async throws -> [MailRecipient] {
        try await database.readAsync { db in try await db.rows(MailSQL.recipients) }.map { row in
            try readBack("mail recipient") {
                MailRecipient(
                    family: try row.id("familyId"), familyName: try row.string("familyName"), user: try row.id("userId"),
                    username: try row.string("username"), choice: try Self.choice(row), digestSince: try row.timestamp("since"))
            }
        }
    }

    public func hasMail(family: FamilyID, user: UserID, key: String) async throws -> Bool {
        try await database.readAsync { db in try await db.exists(MailSQL.hasMail, [family.sql, user.sql, key]) }
    }

    public func enqueue(
        family: FamilyID, user: UserID, key: String, recipient: String, messageID: String, message: Data, state: OutboxState,
        digestUntil: Date?
    ) async throws -> Bool {
        let now = database.clock.now().stored
        return try await database.writeAsync { db in
            let added = try await db.execute(
                MailSQL.enqueue + " RETURNING id",
                [UUID().uuidString.lowercased(), family.sql, user.sql, key, recipient, messageID, message, state.rawValue, now, now])
            guard added == 1 else { return false }
            if let digestUntil { try await db.execute(MailSQL.moveDigestWindow, [digestUntil.stored, family.sql, user.sql]) }
            return true
        }
    }

    public func claimNext(now: Date) async throws -> OutboxMail? {
        let row = try await database.writeAsync { db -> PostgresRecord? in
            guard let id = try await db.string(MailSQL.due + " FOR UPDATE SKIP LOCKED", [now.stored]) else { return nil }
            try await db.execute(MailSQL.claim, [now.stored, id])
            return try await db.row("SELECT \(MailSQL.columns) FROM mailOutbox WHERE id = ?", [id])
        }
        return try row.map(Self.decode)
    }

    public func finish(id: String, result: SendResult) async throws {
        let (sql, arguments) = MailSQL.finish(result, id: id, now: database.clock.now().stored, stored: \.stored)
        try await database.writeAsync { db in try await db.execute(sql, arguments) }
    }

    public func abandonStale(claimedBefore: Date) async throws -> Int {
        try await database.writeAsync { db in try await db.execute(MailSQL.abandonStale + " RETURNING id", [claimedBefore.stored]) }
    }

    public func forget(before: Date) async throws -> Int {
        try await database.writeAsync { db in try await db.execute(MailSQL.forget + " RETURNING id", [before.stored]) }
    }

    public func outbox(limit: Int) async throws -> [OutboxMail] {
        try await database.readAsync { db in
            try await db.rows("SELECT \(MailSQL.columns) FROM mailOutbox ORDER BY createdAt DESC, id DESC LIMIT ?", [max(0, limit)])
        }.map(Self.decode)
    }

    public func newEntries(family: FamilyID, user: UserID, since: Date, until: Date) async throws -> [EntryID] {
        try await database.readAsync { db in
            try await db.strings(MailSQL.newEntries, [family.sql, user.sql, since.stored, until.stored, user.sql])
        }.compactMap(EntryID.init)
    }

    public func commentsOnOwnEntries(family: FamilyID, user: UserID, since: Date, until: Date) async throws -> [(comment: Comment, entry: EntryID)] {
        try await database.readAsync { db in
            try await db.rows(MailSQL.commentsOnOwnEntries, [family.sql, user.sql, family.sql, since.stored, until.stored, user.sql])
        }.map { row in (try PostgresReactionStore.decode(row), try row.id("ownEntry")) }
    }

    private static func choice(_ row: PostgresRecord) throws -> MailChoice {
        try readBack("mail choice") {
            MailChoice(
                address: try row.optionalString("mailAddress"), digest: try DigestFrequency.read(try row.string("mailDigest")),
                reminders: try row.bool("mailReminders"), language: try row.string("mailLanguage"))
        }
    }

    static func decode(_ row: PostgresRecord) throws -> OutboxMail {
        try readBack("outbox mail") {
            guard let state = OutboxState(rawValue: try row.string("state")) else { throw StoreError.unreadable("an outbox state") }
            return OutboxMail(
                id: try row.string("id"), family: try row.id("familyId"), user: try row.id("userId"), key: try row.string("key"),
                recipient: try row.string("recipient"), messageID: try row.string("messageId"), message: try row.optionalData("message") ?? Data(),
                state: state, attempts: try row.int("attempts"), nextAttemptAt: try row.timestamp("nextAttemptAt"),
                lastError: try row.optionalString("lastError"), createdAt: try row.timestamp("createdAt"),
                sentAt: try row.optionalTimestamp("sentAt"))
        }
    }
}
