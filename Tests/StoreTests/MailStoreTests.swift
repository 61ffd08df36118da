import Diary
import Foundation
import KoreanCalendar
import Persistence
import Testing

/// The outbox and members' mail choices, on both engines: a message is claimed by one sender only, a key is queued
/// once, and a sender that died leaves `unknown` (never sent again).
@Suite struct MailStoreTests {
    @Test(arguments: Engine.available) func choicesStartTheDigestWindowWhenTurnedOn(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let mail = fixture.stores.mail
        let mom = try await fixture.stores.accounts.user(named: "kim")
        #expect(try await mail.choice(family: fixture.family, user: mom) == MailChoice())
        #expect(try await mail.recipients().isEmpty)
        let before = Date()
        try await Task.sleep(for: .milliseconds(5))
        let choice = MailChoice(address: "mom@example.kr", digest: .daily, reminders: true, language: "en")
        try await mail.setChoice(choice, family: fixture.family, user: mom)
        #expect(try await mail.choice(family: fixture.family, user: mom) == choice)
        let recipient = try #require(try await mail.recipients().first)
        #expect(recipient.user == mom && recipient.username == "kim" && recipient.familyName == "김씨네" && recipient.digestSince > before)
        // Changing the address keeps the window; a stranger's choice is not found.
        try await mail.setChoice(MailChoice(address: "m@example.kr", digest: .weekly, reminders: false), family: fixture.family, user: mom)
        #expect(try await mail.recipients().first?.digestSince == recipient.digestSince)
        await #expect(throws: StoreError.self) { try await mail.setChoice(choice, family: try await fixture.otherFamily(), user: mom) }
        try await mail.setChoice(MailChoice(address: "m@example.kr"), family: fixture.family, user: mom)
        #expect(try await mail.recipients().isEmpty)
    }

    @Test(arguments: Engine.available) func eachMessageIsQueuedOnceAndClaimedOnce(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let mail = fixture.stores.mail
        let mom = try await fixture.stores.accounts.user(named: "kim")
        let later = Date().addingTimeInterval(3600)
        func queue(_ key: String, until: Date? = nil) async throws -> Bool {
            try await mail.enqueue(
                family: fixture.family, user: mom, key: key, recipient: "m@example.kr", messageID: "\(key)@x", message: Data("hi \(key)".utf8),
                state: .queued, digestUntil: until)
        }
        #expect(try await queue("digest:2026-11-24", until: later))
        #expect(try await !queue("digest:2026-11-24"))
        #expect(try await mail.hasMail(family: fixture.family, user: mom, key: "digest:2026-11-24"))
        #expect(try await queue("reminder:a"))
        // Eight senders race for two messages: each message goes to exactly one.
        let claimed = try await withThrowingTaskGroup(of: OutboxMail?.self) { group in
            for _ in 0..<8 { group.addTask { try await mail.claimNext(now: later) } }
            return try await group.reduce(into: [OutboxMail]()) { if let mail = $1 { $0.append(mail) } }
        }
        #expect(claimed.map(\.key).sorted() == ["digest:2026-11-24", "reminder:a"])
        #expect(claimed.allSatisfy { $0.state == .sending && $0.attempts == 1 })
        let digest = try #require(claimed.first { $0.key.hasPrefix("digest") })
        #expect(digest.message == Data("hi digest:2026-11-24".utf8) && digest.messageID == "digest:2026-11-24@x")
        // A retry comes back when due, not before.
        try await mail.finish(id: digest.id, result: .retry(at: later.addingTimeInterval(60), error: "451 later"))
        #expect(try await mail.claimNext(now: later) == nil)
        let again = try #require(try await mail.claimNext(now: later.addingTimeInterval(61)))
        #expect(again.id == digest.id && again.attempts == 2)
        try await mail.finish(id: again.id, result: .sent)
        // The other's sender died: it becomes unknown and is never claimed again.
        #expect(try await mail.abandonStale(claimedBefore: Date().addingTimeInterval(-600)) == 0)
        #expect(try await mail.abandonStale(claimedBefore: later.addingTimeInterval(1)) == 1)
        #expect(try await mail.claimNext(now: later.addingTimeInterval(86_400)) == nil)
        let states = Dictionary(uniqueKeysWithValues: try await mail.outbox(limit: 10).map { ($0.key, $0.state) })
        #expect(states == ["digest:2026-11-24": .sent, "reminder:a": .unknown])
        #expect(try await mail.outbox(limit: 10).first { $0.state == .sent }?.sentAt != nil)
        // The digest window moved with the queued digest.
        #expect(try await mail.forget(before: Date().addingTimeInterval(60)) == 2)
        #expect(try await mail.outbox(limit: 10).isEmpty)
    }

    @Test(arguments: Engine.available) func aDigestTellsOthersEntriesAndCommentsOnOwnEntries(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let child = try await fixture.child()
        let accounts = fixture.stores.accounts
        let mom = try await accounts.user(named: "kim")
        let grandma = try await fixture.grandmaJoins()
        let start = Date().addingTimeInterval(-1)
        func write(_ title: String, by author: UserID) async throws -> Entry {
            try await fixture.stores.entries.create(
                family: fixture.family, content: try EntryContent(title: title, body: "", date: try LocalDateTime(iso: "2026-11-22T09:00"), childIDs: [child.id]),
                photos: [], author: author)
        }
        let first = try await write("첫 걸음", by: mom)
        let second = try await write("이유식", by: mom)
        let hers = try await write("할머니 일기", by: grandma)
        try await fixture.stores.news.markRead(family: fixture.family, user: grandma, entries: [second.id])
        let mail = fixture.stores.mail
        let now = Date().addingTimeInterval(1)
        #expect(try await mail.newEntries(family: fixture.family, user: grandma, since: start, until: now) == [first.id])
        #expect(try await mail.newEntries(family: fixture.family, user: mom, since: start, until: now) == [hers.id])
        #expect(try await mail.newEntries(family: fixture.family, user: grandma, since: now, until: now.addingTimeInterval(9)).isEmpty)
        let reactions = fixture.stores.reactions
        let onFirst = try await reactions.addComment(family: fixture.family, on: .entry(first.id), author: grandma, text: "귀여워라")
        _ = try await reactions.addComment(family: fixture.family, on: .entry(first.id), author: mom, text: "고마워요")  // her own
        _ = try await reactions.addComment(family: fixture.family, on: .entry(hers.id), author: mom, text: "좋아요")  // not mom's entry
        let comments = try await mail.commentsOnOwnEntries(family: fixture.family, user: mom, since: start, until: Date().addingTimeInterval(1))
        #expect(comments.map(\.comment.id) == [onFirst.id] && comments.map(\.entry) == [first.id])
        #expect(comments.first?.comment.authorName == "grandma")
    }
}
