import Foundation

/// How often a member hears from the family by e-mail.
public enum DigestFrequency: String, Sendable, CaseIterable, Codable {
    case off, daily, weekly
}

/// What one member chose to receive by e-mail from one family. Nothing is sent until they give an address and
/// turn something on; the unsubscribe link in every mail turns both off.
public struct MailChoice: Hashable, Sendable {
    /// Checked (`MailAddress`) before it is stored.
    public var address: String?
    public var digest: DigestFrequency
    /// A mail a few days before each milestone, birthday, anniversary and vaccination.
    public var reminders: Bool
    /// `ko` or `en`: the language of their mail.
    public var language: String

    public static let languages = ["ko", "en"]

    public init(address: String? = nil, digest: DigestFrequency = .off, reminders: Bool = false, language: String = "ko") {
        self.address = address
        self.digest = digest
        self.reminders = reminders
        self.language = language
    }

    /// Whether anything would be sent.
    public var isOn: Bool { address != nil && (digest != .off || reminders) }
}

/// A member who asked for mail, with what the digest composer needs.
public struct MailRecipient: Sendable {
    public let family: FamilyID
    public let familyName: String
    public let user: UserID
    public let username: String
    public let choice: MailChoice
    /// Where their next digest starts: the end of the last one, or when they turned digests on.
    public let digestSince: Date

    public init(family: FamilyID, familyName: String, user: UserID, username: String, choice: MailChoice, digestSince: Date) {
        self.family = family
        self.familyName = familyName
        self.user = user
        self.username = username
        self.choice = choice
        self.digestSince = digestSince
    }
}

/// Where a message in the outbox stands. A message is sent at most once: it is marked `sending` (with its
/// Message-ID already stored) before the first byte goes out, and a `sending` whose sender never came back becomes
/// `unknown` — perhaps delivered, never sent again.
public enum OutboxState: String, Sendable, CaseIterable, Codable {
    case queued, sending, sent, failed, unknown
    /// A digest that had nothing to say: its key is taken so it is not composed again, and nothing is sent.
    case skipped
}

/// One message in the outbox, rendered once when it was queued and sent as those exact bytes.
public struct OutboxMail: Sendable {
    public let id: String
    public let family: FamilyID
    public let user: UserID
    /// What it is, unique per member and family: `digest:2026-11-24`, `reminder:milestone:…:2026-11-27`.
    public let key: String
    public let recipient: String
    public let messageID: String
    public let message: Data
    public let state: OutboxState
    public let attempts: Int
    public let nextAttemptAt: Date
    public let lastError: String?
    public let createdAt: Date
    public let sentAt: Date?

    public init(
        id: String, family: FamilyID, user: UserID, key: String, recipient: String, messageID: String, message: Data,
        state: OutboxState, attempts: Int, nextAttemptAt: Date, lastError: String?, createdAt: Date, sentAt: Date?
    ) {
        self.id = id
        self.family = family
        self.user = user
        self.key = key
        self.recipient = recipient
        self.messageID = messageID
        self.message = message
        self.state = state
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastError = lastError
        self.createdAt = createdAt
        self.sentAt = sentAt
    }
}

/// How one attempt at sending ended.
public enum SendResult: Sendable, Equatable {
    case sent
    /// Try again at `at`.
    case retry(at: Date, error: String)
    /// Never again.
    case failed(String)
    /// The message went out and no answer came: it may have arrived, so it is never sent again.
    case unknown(String)
}

/// Members' mail choices, the outbox, and what a digest tells.
public protocol MailStore: Sendable {
    func choice(family: FamilyID, user: UserID) async throws -> MailChoice

    /// Stores a member's choice. Turning the digest on (from off) starts it from now: no mail about the past.
    func setChoice(_ choice: MailChoice, family: FamilyID, user: UserID) async throws

    /// Every member who asked for something, in every family.
    func recipients() async throws -> [MailRecipient]

    /// Every owner who gave an address, in every family, whatever they asked for: who hears when a snapshot fails.
    func owners() async throws -> [MailRecipient]

    /// Whether a message with this key was queued for the member before (sent, skipped or waiting).
    func hasMail(family: FamilyID, user: UserID, key: String) async throws -> Bool

    /// Queues a rendered message (or, with `state: .skipped`, only takes its key). With `digestUntil`, the member's
    /// next digest starts there, in the same transaction. Returns false when the key was taken already.
    func enqueue(
        family: FamilyID, user: UserID, key: String, recipient: String, messageID: String, message: Data, state: OutboxState,
        digestUntil: Date?
    ) async throws -> Bool

    /// Takes the oldest message due at `now`, marking it `sending` (one sender gets each, across servers).
    func claimNext(now: Date) async throws -> OutboxMail?

    /// Records how sending a claimed message ended.
    func finish(id: String, result: SendResult) async throws

    /// `sending` messages claimed before `claimedBefore` (their sender died): `unknown`. Returns how many.
    func abandonStale(claimedBefore: Date) async throws -> Int

    /// Forgets messages that were dealt with (sent, failed, unknown, skipped) before `before`; returns how many.
    func forget(before: Date) async throws -> Int

    /// The outbox, newest first (the command line's listing, tests).
    func outbox(limit: Int) async throws -> [OutboxMail]

    /// Entries others wrote in the family, created after `since` and not after `until`, that `user` has not opened;
    /// oldest first. Imports (no author) are not news.
    func newEntries(family: FamilyID, user: UserID, since: Date, until: Date) async throws -> [EntryID]

    /// Comments others made after `since` and not after `until` on entries `user` wrote or on those entries' photos,
    /// with the entry they belong to; oldest first.
    func commentsOnOwnEntries(family: FamilyID, user: UserID, since: Date, until: Date) async throws -> [(comment: Comment, entry: EntryID)]
}
