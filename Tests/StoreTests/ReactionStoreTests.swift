import Diary
import DiaryStore
import Foundation
import KoreanCalendar
import Persistence
import Testing

/// Comments and hearts, the same on both engines: in order, one heart per member, the author's to change, the
/// author's or an owner's to delete, gone with their entry, never across families.
@Suite struct ReactionStoreTests {
    @Test(arguments: Engine.available) func commentsAreInOrderAndTheirAuthorsToChange(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let child = try await fixture.child()
        let entry = try await fixture.entry("돌잔치", at: "2026-03-01T12:00", children: [child.id])
        let accounts = fixture.stores.accounts
        let mom = try await accounts.user(named: "kim")
        let grandma = try await fixture.grandmaJoins()
        let reactions = fixture.stores.reactions
        let first = try await reactions.addComment(family: fixture.family, on: .entry(entry.id), author: grandma, text: "  아이고 예뻐라  ")
        let second = try await reactions.addComment(family: fixture.family, on: .entry(entry.id), author: mom, text: "고마워요 어머니")
        #expect(first.text == "아이고 예뻐라" && first.authorName == "grandma")
        #expect(try await reactions.comments(family: fixture.family, on: .entry(entry.id)).map(\.id) == [first.id, second.id])
        // Only the author changes it; nobody else, even in the family, can tell it apart from a missing one.
        await #expect(throws: StoreError.notFound(kind: "comment", id: first.id.description)) {
            try await reactions.editComment(family: fixture.family, id: first.id, author: mom, text: "바꿈")
        }
        let edited = try await reactions.editComment(family: fixture.family, id: first.id, author: grandma, text: "정말 예뻐라")
        #expect(edited.text == "정말 예뻐라" && edited.createdAt == first.createdAt)
        // Deleting: the author or an owner.
        await #expect(throws: StoreError.self) {
            try await reactions.deleteComment(family: fixture.family, id: second.id, by: grandma, asOwner: false)
        }
        _ = try await reactions.deleteComment(family: fixture.family, id: first.id, by: mom, asOwner: true)
        #expect(try await reactions.comments(family: fixture.family, on: .entry(entry.id)).map(\.id) == [second.id])
        // Text limits and another family.
        for bad in ["", "   ", String(repeating: "가", count: Comment.maxLength + 1), "a\u{0}b"] {
            await #expect(throws: ValidationError.self) {
                try await reactions.addComment(family: fixture.family, on: .entry(entry.id), author: mom, text: bad)
            }
        }
        let other = try await fixture.otherFamily()
        await #expect(throws: StoreError.self) { try await reactions.comments(family: other, on: .entry(entry.id)) }
        await #expect(throws: StoreError.self) { try await reactions.comment(family: other, id: second.id) }
        // A comment goes with its entry.
        _ = try await fixture.stores.entries.delete(family: fixture.family, id: entry.id, by: nil)
        await #expect(throws: StoreError.self) { try await reactions.comment(family: fixture.family, id: second.id) }
    }

    @Test(arguments: Engine.available) func aMemberHeartsOnceAndCanTakeItBack(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let child = try await fixture.child()
        let entry = try await fixture.entry("첫 걸음", at: "2026-03-01T12:00", children: [child.id])
        let mom = try await fixture.stores.accounts.user(named: "kim")
        let reactions = fixture.stores.reactions
        #expect(try await reactions.setHeart(family: fixture.family, on: .entry(entry.id), user: mom, on: true).map(\.userName) == ["kim"])
        #expect(try await reactions.setHeart(family: fixture.family, on: .entry(entry.id), user: mom, on: true).count == 1)
        #expect(try await reactions.setHeart(family: fixture.family, on: .entry(entry.id), user: mom, on: false).isEmpty)
        #expect(try await reactions.setHeart(family: fixture.family, on: .entry(entry.id), user: mom, on: false).isEmpty)
        let other = try await fixture.otherFamily()
        await #expect(throws: StoreError.self) { try await reactions.setHeart(family: other, on: .entry(entry.id), user: mom, on: true) }
        await #expect(throws: StoreError.self) { try await reactions.hearts(family: fixture.family, on: .photo(PhotoID())) }
    }
}

/// What is new to a member: others' entries since they joined, unopened; their own and authorless ones never.
@Suite struct NewsStoreTests {
    /// A member who never opens an entry has a whole diary of news: each author's is counted up to a thousand, off an
    /// index, and the line says "more than".
    @Test(arguments: Engine.available) func newsCountsAThousandOfAnAuthorsEntriesAtMost(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let child = try await fixture.child()
        let accounts = fixture.stores.accounts
        let mom = try await accounts.user(named: "kim")
        let grandma = try await fixture.grandmaJoins()
        try await Task.sleep(for: .milliseconds(5))
        let content = try EntryContent(title: "산책", body: "", date: try LocalDateTime(iso: "2026-11-22T09:00"), childIDs: [child.id])
        // In one transaction: a thousand serializable ones, each keeping its read locks while others run, fill
        // PostgreSQL's predicate lock table beside the rest of the suite.
        let (family, now) = (fixture.family, Date())
        try await fixture.database.write { db in
            for _ in 0...NewsLine.counted { _ = try SQLEntryStore.insert(db, family: family, content: content, photos: [], author: mom, now: now) }
        }
        let lines = try await fixture.stores.news.news(family: fixture.family, user: grandma)
        #expect(lines.map(\.entries) == [NewsLine.counted] && lines.allSatisfy(\.isAtLeastCounted))
        try await fixture.stores.news.markAllRead(family: fixture.family, user: grandma)
        #expect(try await fixture.stores.news.news(family: fixture.family, user: grandma).isEmpty)
    }

    @Test(arguments: Engine.available) func othersEntriesAreNewUntilOpened(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let child = try await fixture.child()
        let accounts = fixture.stores.accounts
        let mom = try await accounts.user(named: "kim")
        // An entry before grandma joined, and one without an author (an import): never news to her.
        let before = try await fixture.stores.entries.create(
            family: fixture.family, content: try EntryContent(title: "예전", body: "", date: try LocalDateTime(iso: "2026-01-01T09:00"), childIDs: [child.id]),
            photos: [], author: mom)
        try await Task.sleep(for: .milliseconds(5))
        let grandma = try await fixture.grandmaJoins()
        try await Task.sleep(for: .milliseconds(5))
        let entries = fixture.stores.entries
        func write(_ title: String, by author: UserID?) async throws -> Entry {
            try await entries.create(
                family: fixture.family, content: try EntryContent(title: title, body: "", date: try LocalDateTime(iso: "2026-11-22T09:00"), childIDs: [child.id]),
                photos: [], author: author)
        }
        let first = try await write("첫 걸음", by: mom)
        let second = try await write("이유식", by: mom)
        _ = try await write("가져온 일기", by: nil)
        let own = try await write("할머니 일기", by: grandma)
        let news = fixture.stores.news
        #expect(try await news.news(family: fixture.family, user: grandma) == [NewsLine(authorID: mom, authorName: "kim", entries: 2, photos: 0)])
        #expect(try await news.unread(family: fixture.family, user: grandma, among: [before, first, second, own]) == [first.id, second.id])
        #expect(try await news.news(family: fixture.family, user: mom).map(\.entries) == [1])  // grandma's, for mom
        try await news.markRead(family: fixture.family, user: grandma, entries: [first.id, first.id, EntryID()])
        #expect(try await news.unread(family: fixture.family, user: grandma, among: [first, second]) == [second.id])
        try await news.markAllRead(family: fixture.family, user: grandma)
        #expect(try await news.news(family: fixture.family, user: grandma).isEmpty)
        // The author stays through edits.
        let edited = try await entries.update(family: fixture.family, id: first.id, content: first.content).entry
        let ownAgain = try await entries.get(family: fixture.family, id: own.id)
        #expect(edited.authorID == mom && ownAgain.authorID == grandma)
        // Another family's member sees none of it.
        let other = try await fixture.otherFamily()
        #expect(try await news.news(family: other, user: grandma).isEmpty)
    }
}
