import Diary
import Foundation

/// `MailStore` over either engine: members' mail choices and the outbox.
public struct SQLMailStore: MailStore {
    let database: any StoreDatabase

    public init(_ database: any StoreDatabase) { self.database = database }

    public func choice(family: FamilyID, user: UserID) async throws -> MailChoice {
        try await database.read { db in
            guard let row = try db.row(
                "SELECT mailAddress, mailDigest, mailReminders, mailLanguage FROM memberships WHERE familyId = \(family) AND userId = \(user)")
            else { throw StoreError.notFound(kind: "member", id: user.description) }
            return try Self.choice(row)
        }
    }

    public func setChoice(_ choice: MailChoice, family: FamilyID, user: UserID) async throws {
        let now = database.clock.now()
        try await database.write { db in
            // The digest's window starts now when it is turned on (SET reads the row's old values).
            let changed = try db.execute(
                """
                UPDATE memberships SET mailAddress = \(choice.address), mailDigest = \(choice.digest.rawValue),
                    mailReminders = \(choice.reminders), mailLanguage = \(choice.language),
                    mailSince = CASE WHEN mailDigest = 'off' AND \(choice.digest.rawValue) <> 'off' THEN \(now) ELSE mailSince END
                WHERE familyId = \(family) AND userId = \(user)
                """)
            guard changed == 1 else { throw StoreError.notFound(kind: "member", id: user.description) }
        }
    }

    public func recipients() async throws -> [MailRecipient] {
        try await members(where: "m.mailAddress IS NOT NULL AND (m.mailDigest <> 'off' OR m.mailReminders)")
    }

    public func owners() async throws -> [MailRecipient] {
        try await members(where: "m.mailAddress IS NOT NULL AND m.role = 'owner'")
    }

    /// The members `condition` (trusted text) keeps, with their mail choices.
    private func members(where condition: String) async throws -> [MailRecipient] {
        try await database.read { db in
            try db.rows(
                """
                SELECT m.familyId, f.name AS familyName, m.userId, u.username, m.mailAddress, m.mailDigest, m.mailReminders,
                    m.mailLanguage, COALESCE(m.mailSince, m.createdAt) AS since
                FROM memberships m JOIN families f ON f.id = m.familyId JOIN users u ON u.id = m.userId
                WHERE \(raw: condition)
                ORDER BY m.familyId, m.userId
                """
            ).map { row in
                try readBack("mail recipient") {
                    MailRecipient(
                        family: try row.id("familyId"), familyName: try row.string("familyName"), user: try row.id("userId"),
                        username: try row.string("username"), choice: try Self.choice(row), digestSince: try row.timestamp("since"))
                }
            }
        }
    }

    public func hasMail(family: FamilyID, user: UserID, key: String) async throws -> Bool {
        try await database.read { db in
            try db.exists("SELECT 1 FROM mailOutbox WHERE familyId = \(family) AND userId = \(user) AND key = \(key)")
        }
    }

    public func enqueue(
        family: FamilyID, user: UserID, key: String, recipient: String, messageID: String, message: Data, state: OutboxState,
        digestUntil: Date?
    ) async throws -> Bool {
        let now = database.clock.now()
        let id = UUID().uuidString.lowercased()
        return try await database.write { db in
            let added = try db.execute(
                """
                INSERT INTO mailOutbox (id, familyId, userId, key, recipient, messageId, message, state, attempts, nextAttemptAt, createdAt)
                VALUES (\(id), \(family), \(user), \(key), \(recipient), \(messageID), \(message), \(state.rawValue), 0, \(now), \(now))
                ON CONFLICT (familyId, userId, key) DO NOTHING
                """)
            guard added == 1 else { return false }
            if let digestUntil {
                try db.execute("UPDATE memberships SET mailSince = \(digestUntil) WHERE familyId = \(family) AND userId = \(user)")
            }
            return true
        }
    }

    public func claimNext(now: Date) async throws -> OutboxMail? {
        try await database.write { db in
            // On PostgreSQL the row is locked, and a message another server holds is passed over.
            guard let id = try db.string(
                """
                SELECT id FROM mailOutbox WHERE state = 'queued' AND nextAttemptAt <= \(now) ORDER BY nextAttemptAt, id LIMIT 1
                \(raw: db.dialect == .postgres ? "FOR UPDATE SKIP LOCKED" : "")
                """)
            else { return nil }
            try db.execute(
                "UPDATE mailOutbox SET state = 'sending', claimedAt = \(now), attempts = attempts + 1 WHERE id = \(id) AND state = 'queued'")
            return try db.row("SELECT \(Self.columns) FROM mailOutbox WHERE id = \(id)").map(Self.decode)
        }
    }

    public func finish(id: String, result: SendResult) async throws {
        let now = database.clock.now()
        let statement: SQL =
            switch result {
            case .sent: "UPDATE mailOutbox SET state = 'sent', sentAt = \(now), lastError = NULL WHERE id = \(id) AND state = 'sending'"
            case .retry(let at, let error):
                "UPDATE mailOutbox SET state = 'queued', nextAttemptAt = \(at), lastError = \(error) WHERE id = \(id) AND state = 'sending'"
            case .failed(let error): "UPDATE mailOutbox SET state = 'failed', lastError = \(error) WHERE id = \(id) AND state = 'sending'"
            case .unknown(let error): "UPDATE mailOutbox SET state = 'unknown', lastError = \(error) WHERE id = \(id) AND state = 'sending'"
            }
        try await database.write { db in try db.execute(statement) }
    }

    public func abandonStale(claimedBefore: Date) async throws -> Int {
        try await database.write { db in
            try db.execute(
                """
                UPDATE mailOutbox SET state = 'unknown', lastError = 'the sender stopped before it knew whether the server took it'
                WHERE state = 'sending' AND claimedAt < \(claimedBefore)
                """)
        }
    }

    public func forget(before: Date) async throws -> Int {
        try await database.write { db in
            try db.execute("DELETE FROM mailOutbox WHERE state IN ('sent', 'failed', 'unknown', 'skipped') AND createdAt < \(before)")
        }
    }

    public func outbox(limit: Int) async throws -> [OutboxMail] {
        try await database.read { db in
            try db.rows("SELECT \(Self.columns) FROM mailOutbox ORDER BY createdAt DESC, id DESC LIMIT \(max(0, limit))").map(Self.decode)
        }
    }

    public func newEntries(family: FamilyID, user: UserID, since: Date, until: Date) async throws -> [EntryID] {
        try await database.read { db in
            try db.strings(
                """
                SELECT e.id FROM entries e
                WHERE e.familyId = \(family) AND e.authorId IS NOT NULL AND e.authorId <> \(user) AND e.createdAt > \(since)
                  AND e.createdAt <= \(until) AND NOT EXISTS (SELECT 1 FROM entryReads r WHERE r.entryId = e.id AND r.userId = \(user))
                ORDER BY e.createdAt, e.id
                """
            ).compactMap(EntryID.init)
        }
    }

    public func commentsOnOwnEntries(family: FamilyID, user: UserID, since: Date, until: Date) async throws -> [(comment: Comment, entry: EntryID)] {
        try await database.read { db in
            // The comment's columns as the reaction store reads them, and the member's entry it is on (`ownEntry`).
            try db.rows(
                """
                WITH own AS (SELECT id FROM entries WHERE familyId = \(family) AND authorId = \(user))
                SELECT c.*, u.username AS authorName,
                    COALESCE(c.entryId, (SELECT min(ep.entryId) FROM entryPhotos ep
                        WHERE ep.photoId = c.photoId AND ep.entryId IN (SELECT id FROM own))) AS ownEntry
                FROM comments c LEFT JOIN users u ON u.id = c.authorId
                WHERE c.familyId = \(family) AND c.createdAt > \(since) AND c.createdAt <= \(until) AND c.authorId IS NOT NULL
                  AND c.authorId <> \(user)
                  AND (c.entryId IN (SELECT id FROM own)
                       OR c.photoId IN (SELECT ep.photoId FROM entryPhotos ep WHERE ep.entryId IN (SELECT id FROM own)))
                ORDER BY c.createdAt, c.id
                """
            ).map { row in (try SQLReactionStore.decode(row), try row.id("ownEntry") as EntryID) }
        }
    }

    static let columns: SQL = """
        id, familyId, userId, key, recipient, messageId, message, state, attempts, nextAttemptAt, lastError, createdAt, sentAt
        """

    static func choice(_ row: SQLRow) throws -> MailChoice {
        try readBack("mail choice") {
            MailChoice(
                address: try row.optionalString("mailAddress"), digest: try DigestFrequency.read(try row.optionalString("mailDigest")),
                reminders: try row.bool("mailReminders"), language: try row.string("mailLanguage"))
        }
    }

    static func decode(_ row: SQLRow) throws -> OutboxMail {
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

extension DigestFrequency {
    static func read(_ text: String?) throws -> DigestFrequency {
        guard let text, let frequency = DigestFrequency(rawValue: text) else { throw StoreError.unreadable("a digest frequency") }
        return frequency
    }
}
