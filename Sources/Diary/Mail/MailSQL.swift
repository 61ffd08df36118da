import Foundation

/// The SQL both engines' mail stores share (SQLite and PostgreSQL read `?` alike here; the PostgreSQL store numbers
/// them).
public enum MailSQL {
    /// family, user.
    public static let choice = """
        SELECT mailAddress, mailDigest, mailReminders, mailLanguage FROM memberships WHERE familyId = ? AND userId = ?
        """

    /// address, digest, reminders, language, digest (again), now, family, user. The window starts now when the digest
    /// is turned on (SET reads the row's old values).
    public static let setChoice = """
        UPDATE memberships SET mailAddress = ?, mailDigest = ?, mailReminders = ?, mailLanguage = ?,
            mailSince = CASE WHEN mailDigest = 'off' AND ? <> 'off' THEN ? ELSE mailSince END
        WHERE familyId = ? AND userId = ?
        """

    public static let recipients = """
        SELECT m.familyId, f.name AS familyName, m.userId, u.username, m.mailAddress, m.mailDigest, m.mailReminders,
            m.mailLanguage, COALESCE(m.mailSince, m.createdAt) AS since
        FROM memberships m JOIN families f ON f.id = m.familyId JOIN users u ON u.id = m.userId
        WHERE m.mailAddress IS NOT NULL AND (m.mailDigest <> 'off' OR m.mailReminders)
        ORDER BY m.familyId, m.userId
        """

    /// family, user, key.
    public static let hasMail = "SELECT 1 FROM mailOutbox WHERE familyId = ? AND userId = ? AND key = ?"

    /// id, family, user, key, recipient, messageId, message, state, nextAttemptAt, createdAt.
    public static let enqueue = """
        INSERT INTO mailOutbox (id, familyId, userId, key, recipient, messageId, message, state, attempts, nextAttemptAt, createdAt)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?) ON CONFLICT (familyId, userId, key) DO NOTHING
        """

    /// since, family, user.
    public static let moveDigestWindow = "UPDATE memberships SET mailSince = ? WHERE familyId = ? AND userId = ?"

    /// now: the id of the oldest message due (the PostgreSQL store locks it).
    public static let due = "SELECT id FROM mailOutbox WHERE state = 'queued' AND nextAttemptAt <= ? ORDER BY nextAttemptAt, id LIMIT 1"

    /// now, id.
    public static let claim = "UPDATE mailOutbox SET state = 'sending', claimedAt = ?, attempts = attempts + 1 WHERE id = ? AND state = 'queued'"

    public static let columns = """
        id, familyId, userId, key, recipient, messageId, message, state, attempts, nextAttemptAt, lastError, createdAt, sentAt
        """

    /// The statement and its arguments that record how a claimed message's sending ended (`now` for `sentAt`).
    public static func finish(_ result: SendResult, id: String, now: String, stored: (Date) -> String) -> (sql: String, arguments: [String]) {
        switch result {
        case .sent:
            ("UPDATE mailOutbox SET state = 'sent', sentAt = ?, lastError = NULL WHERE id = ? AND state = 'sending'", [now, id])
        case .retry(let at, let error):
            ("UPDATE mailOutbox SET state = 'queued', nextAttemptAt = ?, lastError = ? WHERE id = ? AND state = 'sending'", [stored(at), error, id])
        case .failed(let error):
            ("UPDATE mailOutbox SET state = 'failed', lastError = ? WHERE id = ? AND state = 'sending'", [error, id])
        case .unknown(let error):
            ("UPDATE mailOutbox SET state = 'unknown', lastError = ? WHERE id = ? AND state = 'sending'", [error, id])
        }
    }

    /// claimedBefore.
    public static let abandonStale = """
        UPDATE mailOutbox SET state = 'unknown', lastError = 'the sender stopped before it knew whether the server took it'
        WHERE state = 'sending' AND claimedAt < ?
        """

    /// before.
    public static let forget = "DELETE FROM mailOutbox WHERE state IN ('sent', 'failed', 'unknown', 'skipped') AND createdAt < ?"

    /// family, user, since, until, user.
    public static let newEntries = """
        SELECT e.id FROM entries e
        WHERE e.familyId = ? AND e.authorId IS NOT NULL AND e.authorId <> ? AND e.createdAt > ? AND e.createdAt <= ?
          AND NOT EXISTS (SELECT 1 FROM entryReads r WHERE r.entryId = e.id AND r.userId = ?)
        ORDER BY e.createdAt, e.id
        """

    /// family, user, family, since, until, user: the comment's columns as the reaction stores read them, and the
    /// member's entry it is on (`ownEntry`).
    public static let commentsOnOwnEntries = """
        WITH own AS (SELECT id FROM entries WHERE familyId = ? AND authorId = ?)
        SELECT c.*, u.username AS authorName,
            COALESCE(c.entryId, (SELECT min(ep.entryId) FROM entryPhotos ep WHERE ep.photoId = c.photoId AND ep.entryId IN (SELECT id FROM own))) AS ownEntry
        FROM comments c LEFT JOIN users u ON u.id = c.authorId
        WHERE c.familyId = ? AND c.createdAt > ? AND c.createdAt <= ? AND c.authorId IS NOT NULL AND c.authorId <> ?
          AND (c.entryId IN (SELECT id FROM own)
               OR c.photoId IN (SELECT ep.photoId FROM entryPhotos ep WHERE ep.entryId IN (SELECT id FROM own)))
        ORDER BY c.createdAt, c.id
        """
}
