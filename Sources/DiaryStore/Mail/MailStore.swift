import Diary
import Foundation
import GRDB
import Persistence

/// `MailStore` over the SQLite database (`DiaryDatabase`), with the statements of `MailSQL`.
public struct SQLiteMailStore: MailStore {
    let database: DiaryDatabase

    public init(_ database: DiaryDatabase) { self.database = database }

    public func choice(family: FamilyID, user: UserID) async throws -> MailChoice {
        try await database.writer.read { db in
            guard let row = try Row.fetchOne(db, sql: MailSQL.choice, arguments: [family.sql, user.sql]) else {
                throw StoreError.notFound(kind: "member", id: user.description)
            }
            return try readBack("mail choice") {
                MailChoice(
                    address: row["mailAddress"], digest: try DigestFrequency.read(row["mailDigest"]), reminders: row["mailReminders"],
                    language: row["mailLanguage"])
            }
        }
    }

    public func setChoice(_ choice: MailChoice, family: FamilyID, user: UserID) async throws {
        let now = database.clock.now().stored
        try await database.writer.write { db in
            try db.execute(
                sql: MailSQL.setChoice,
                arguments: [
                    choice.address, choice.digest.rawValue, choice.reminders, choice.language, choice.digest.rawValue, now, family.sql,
                    user.sql,
                ])
            guard db.changesCount == 1 else { throw StoreError.notFound(kind: "member", id: user.description) }
        }
    }

    public func recipients() async throws -> [MailRecipient] {
        try await database.writer.read { db in
            try Row.fetchAll(db, sql: MailSQL.recipients).map { row in
                try readBack("mail recipient") {
                    MailRecipient(
                        family: try row.id("familyId"), familyName: row["familyName"], user: try row.id("userId"), username: row["username"],
                        choice: MailChoice(
                            address: row["mailAddress"], digest: try DigestFrequency.read(row["mailDigest"]), reminders: row["mailReminders"],
                            language: row["mailLanguage"]),
                        digestSince: try row.timestamp("since"))
                }
            }
        }
    }

    public func hasMail(family: FamilyID, user: UserID, key: String) async throws -> Bool {
        try await database.writer.read { db in try Bool.fetchOne(db, sql: MailSQL.hasMail, arguments: [family.sql, user.sql, key]) ?? false }
    }

    public func enqueue(
        family: FamilyID, user: UserID, key: String, recipient: String, messageID: String, message: Data, state: OutboxState,
        digestUntil: Date?
    ) async throws -> Bool {
        let now = database.clock.now().stored
        return try await database.writer.write { db in
            try db.execute(
                sql: MailSQL.enqueue,
                arguments: [UUID().uuidString.lowercased(), family.sql, user.sql, key, recipient, messageID, message, state.rawValue, now, now])
            guard db.changesCount == 1 else { return false }
            if let digestUntil {
                try db.execute(sql: MailSQL.moveDigestWindow, arguments: [digestUntil.stored, family.sql, user.sql])
            }
            return true
        }
    }

    public func claimNext(now: Date) async throws -> OutboxMail? {
        try await database.writer.write { db in
            guard let id = try String.fetchOne(db, sql: MailSQL.due, arguments: [now.stored]) else { return nil }
            try db.execute(sql: MailSQL.claim, arguments: [now.stored, id])
            return try Row.fetchOne(db, sql: "SELECT \(MailSQL.columns) FROM mailOutbox WHERE id = ?", arguments: [id]).map(Self.decode)
        }
    }

    public func finish(id: String, result: SendResult) async throws {
        let (sql, arguments) = MailSQL.finish(result, id: id, now: database.clock.now().stored, stored: \.stored)
        try await database.writer.write { db in try db.execute(sql: sql, arguments: StatementArguments(arguments)) }
    }

    public func abandonStale(claimedBefore: Date) async throws -> Int {
        try await database.writer.write { db in
            try db.execute(sql: MailSQL.abandonStale, arguments: [claimedBefore.stored])
            return db.changesCount
        }
    }

    public func forget(before: Date) async throws -> Int {
        try await database.writer.write { db in
            try db.execute(sql: MailSQL.forget, arguments: [before.stored])
            return db.changesCount
        }
    }

    public func outbox(limit: Int) async throws -> [OutboxMail] {
        try await database.writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(MailSQL.columns) FROM mailOutbox ORDER BY createdAt DESC, id DESC LIMIT ?", arguments: [max(0, limit)]
            ).map(Self.decode)
        }
    }

    public func newEntries(family: FamilyID, user: UserID, since: Date, until: Date) async throws -> [EntryID] {
        try await database.writer.read { db in
            try String.fetchAll(
                db, sql: MailSQL.newEntries, arguments: [family.sql, user.sql, since.stored, until.stored, user.sql]
            ).compactMap(EntryID.init)
        }
    }

    public func commentsOnOwnEntries(family: FamilyID, user: UserID, since: Date, until: Date) async throws -> [(comment: Comment, entry: EntryID)] {
        try await database.writer.read { db in
            try Row.fetchAll(
                db, sql: MailSQL.commentsOnOwnEntries, arguments: [family.sql, user.sql, family.sql, since.stored, until.stored, user.sql]
            ).map { row in (try SQLiteReactionStore.decode(row), try row.id("ownEntry")) }
        }
    }

    static func decode(_ row: Row) throws -> OutboxMail {
        try readBack("outbox mail") {
            guard let state = OutboxState(rawValue: row["state"]) else { throw StoreError.unreadable("an outbox state") }
            return OutboxMail(
                id: row["id"], family: try row.id("familyId"), user: try row.id("userId"), key: row["key"], recipient: row["recipient"],
                messageID: row["messageId"], message: row["message"], state: state, attempts: row["attempts"],
                nextAttemptAt: try row.timestamp("nextAttemptAt"), lastError: row["lastError"], createdAt: try row.timestamp("createdAt"),
                sentAt: try (row["sentAt"] as String?).map { text in
                    guard let date = StoredTime.date(text) else { throw StoreError.unreadable("sentAt") }
                    return date
                })
        }
    }
}

extension DigestFrequency {
    package static func read(_ text: String?) throws -> DigestFrequency {
        guard let text, let frequency = DigestFrequency(rawValue: text) else { throw StoreError.unreadable("a digest frequency") }
        return frequency
    }
}
