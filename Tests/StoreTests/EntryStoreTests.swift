import Diary
import Foundation
import Persistence
import Synchronization
import KoreanCalendar
import Testing

import DiaryStore

@Suite struct EntryStoreTests {
    @Test(arguments: Engine.available) func keysetPagingVisitsEveryEntryOnceNewestFirst(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let child = try await fixture.child()
        // Several entries share a minute, so the id must break ties.
        var created: [Entry] = []
        for index in 0..<45 {
            let day = 1 + index / 3
            created.append(try await fixture.entry("#\(index)", at: "2026-10-\(day < 10 ? "0" : "")\(day)T09:00", children: [child.id]))
        }
        var seen: [Entry] = []
        var cursor: PageCursor?
        repeat {
            let page = try await fixture.stores.entries.list(family: fixture.family, after: cursor, limit: 7)
            seen += page.items
            cursor = page.next
        } while cursor != nil
        #expect(seen.count == 45)
        #expect(Set(seen.map(\.id)) == Set(created.map(\.id)))
        let keys = seen.map { ($0.content.date.iso, $0.id.description) }
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 > $1 })
    }

    @Test(arguments: Engine.available) func filtersByChildTagAndPeriod(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let sky = try await fixture.child("하늘")
        let sea = try await fixture.child("바다")
        _ = try await fixture.entry("a", at: "2026-11-22T08:00", children: [sky.id], tags: ["산책"])
        _ = try await fixture.entry("b", at: "2026-11-01T08:00", children: [sea.id], tags: ["산책", "공원"])
        _ = try await fixture.entry("c", at: "2026-10-31T23:59", children: [sky.id, sea.id], tags: ["공원"])
        _ = try await fixture.entry("d", at: "2025-12-31T23:59", children: [sky.id])
        let store = fixture.stores.entries
        func titles(_ filter: TimelineFilter) async throws -> [String] {
            try await store.list(family: fixture.family, filter: filter, after: nil, limit: 50).items.map(\.content.title)
        }
        #expect(try await titles(TimelineFilter()) == ["a", "b", "c", "d"])
        #expect(try await titles(TimelineFilter(childID: sky.id)) == ["a", "c", "d"])
        #expect(try await titles(TimelineFilter(tag: "산책")) == ["a", "b"])
        #expect(try await titles(TimelineFilter(childID: sea.id, tag: "공원")) == ["b", "c"])
        #expect(try await titles(TimelineFilter(period: .month(try YearMonth(iso: "2026-11")))) == ["a", "b"])
        #expect(try await titles(TimelineFilter(period: .year(2025))) == ["d"])
        #expect(try await titles(TimelineFilter(tag: "없는태그")) == [])

        let (sections, next) = try await store.timeline(family: fixture.family, filter: TimelineFilter(), after: nil, limit: 50)
        #expect(sections.map(\.month.iso) == ["2026-11", "2026-10", "2025-12"])
        #expect(next == nil)
    }

    @Test(arguments: Engine.available) func updatesReplaceChildrenAndTagsAndDropUnusedTags(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let sky = try await fixture.child("하늘")
        let sea = try await fixture.child("바다")
        let entry = try await fixture.entry("a", at: "2026-11-22T08:00", children: [sky.id], tags: ["옛태그"])
        let store = fixture.stores.entries
        var content = entry.content
        content.childIDs = [sea.id, sky.id]
        content.tags = ["새태그"]
        content.place = try Place(name: "공원", latitude: 37.5, longitude: 127)
        let updated = try await store.update(family: fixture.family, id: entry.id, content: content).entry
        #expect(updated.content == content)
        #expect(try await store.get(family: fixture.family, id: entry.id).content.childIDs == [sea.id, sky.id])
        #expect(try await store.tags(family: fixture.family) == ["새태그"])
        _ = try await store.delete(family: fixture.family, id: entry.id, by: nil)
        #expect(try await store.tags(family: fixture.family).isEmpty)
    }

    /// An entry abroad written before the world's countries were bundled has coordinates, no place text and no country
    /// in its search document; the upkeep's fill gives it both, leaves entries at sea and entries already named as
    /// they are, and a second fill finds nothing to do.
    @Test(arguments: Engine.available) func entriesWrittenBeforeTheirPlaceCouldBeNamedGetItAndAreFoundByIt(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let sky = try await fixture.child()
        let store = fixture.stores.entries
        func written(_ title: String, at place: Place) async throws -> Entry {
            var content = try EntryContent(title: title, body: "", date: try LocalDateTime(iso: "2025-05-05T10:00"), childIDs: [sky.id])
            content.place = place
            return try await store.create(family: fixture.family, content: content, photos: [], author: nil)
        }
        let tokyo = try await written("여행 첫날", at: try Place(name: nil, latitude: 35.6812, longitude: 139.7671))
        let sea = try await written("배 위에서", at: try Place(name: nil, latitude: 30.0, longitude: 125.0))
        let seoul = try await written("집 앞", at: try Place(name: "놀이터", latitude: 37.5665, longitude: 126.9780))
        func found(_ text: String) async throws -> [String] {
            try await fixture.stores.search.search(family: fixture.family, try SearchQuery(text), after: nil, limit: 50).items.map(\.id)
        }
        #expect(try await found("일본") == [tokyo.id.description])
        // As the tenth session's data left it: no place text, and a document without the country.
        try await fixture.execute("UPDATE entries SET placeRegion = NULL WHERE id = ?", [tokyo.id.description])
        switch engine {
        case .sqlite:
            try await fixture.execute("UPDATE searchDocuments SET place = '' WHERE entryId = ?", [tokyo.id.description])
        case .postgres:
            try await fixture.execute(
                "DELETE FROM searchTokens WHERE field = 4 AND documentId = (SELECT id FROM searchDocuments WHERE entryId = ?)", [tokyo.id.description])
            try await fixture.execute("UPDATE searchDocuments SET place = '' WHERE entryId = ?", [tokyo.id.description])
        }
        #expect(try await found("일본").isEmpty)
        let seoulRegion = try await fixture.count("SELECT count(*) FROM entries WHERE placeRegion IS NOT NULL AND id = '\(seoul.id)'")

        #expect(try await store.fillPlaceRegions() == 1)
        #expect(try await found("일본") == [tokyo.id.description])
        #expect(try await fixture.count("SELECT count(*) FROM entries WHERE placeRegion = '일본' AND id = '\(tokyo.id)'") == 1)
        #expect(try await fixture.count("SELECT count(*) FROM entries WHERE placeRegion IS NULL AND id = '\(sea.id)'") == 1)
        #expect(try await fixture.count("SELECT count(*) FROM entries WHERE placeRegion IS NOT NULL AND id = '\(seoul.id)'") == seoulRegion)
        #expect(try await store.fillPlaceRegions() == 0)
        #expect(try await fixture.integrityCheck() == "ok")
    }

    @Test(arguments: Engine.available) func aFailedWriteLeavesNothingHalfDone(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let sky = try await fixture.child()
        let entry = try await fixture.entry("a", at: "2026-11-22T08:00", children: [sky.id], tags: ["유지"])
        var content = entry.content
        content.tags = ["바뀐태그"]
        content.childIDs = [sky.id, ChildID()]
        await #expect(throws: StoreError.self) {
            try await fixture.stores.entries.update(family: fixture.family, id: entry.id, content: content)
        }
        #expect(try await fixture.stores.entries.get(family: fixture.family, id: entry.id) == entry)
    }

    /// The calendar's days: how many entries each has, and the first photo of its earliest entry that has one.
    @Test(arguments: Engine.available) func daysCountEntriesAndShowTheirFirstPhoto(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let child = try await fixture.child()
        func photo(_ n: Int) -> Photo {
            Photo(familyID: fixture.family, sha256: String(repeating: String(n), count: 64), mimeType: "image/jpeg", byteCount: 1,
                width: 1, height: 1, createdAt: Date())
        }
        let stored = try await fixture.stores.photos.add([photo(1), photo(2), photo(3)], family: fixture.family, entry: nil)
        let entries = fixture.stores.entries
        _ = try await entries.create(family: fixture.family, content: try EntryContent(
            title: "저녁", body: "", date: try LocalDateTime(iso: "2026-05-05T19:00"), childIDs: [child.id]), photos: [stored[0].id])
        _ = try await entries.create(family: fixture.family, content: try EntryContent(
            title: "아침", body: "", date: try LocalDateTime(iso: "2026-05-05T08:00"), childIDs: [child.id]), photos: [stored[2].id, stored[1].id])
        _ = try await fixture.entry("글만", at: "2026-05-05T07:00", children: [child.id])
        _ = try await fixture.entry("다음 날", at: "2026-05-06T23:59", children: [child.id])
        _ = try await fixture.entry("다음 달", at: "2026-06-01T00:00", children: [child.id])
        let days = try await entries.days(
            family: fixture.family, from: try SolarDate(iso: "2026-05-01"), through: try SolarDate(iso: "2026-05-31"))
        #expect(days.count == 2)
        #expect(days[try SolarDate(iso: "2026-05-05")] == DaySummary(entries: 3, firstPhoto: stored[2].id))
        #expect(days[try SolarDate(iso: "2026-05-06")] == DaySummary(entries: 1, firstPhoto: nil))
    }
}

@Suite struct OnThisDayStoreTests {
    @Test(arguments: Engine.available) func calendarDaysCountEntriesAndShowTheDaysFirstPhoto(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let child = try await fixture.child()
        let photo = { (n: Int) in
            Photo(familyID: fixture.family, sha256: String(repeating: String(n), count: 64), mimeType: "image/jpeg", byteCount: 1,
                width: 1, height: 1, createdAt: Date())
        }
        _ = try await fixture.entry("아침", at: "2026-11-01T08:00", children: [child.id])
        let noon = try await fixture.entry("점심", at: "2026-11-01T12:00", children: [child.id])
        let evening = try await fixture.entry("저녁", at: "2026-11-01T19:00", children: [child.id])
        let (second, first, later) = (photo(2), photo(1), photo(3))
        _ = try await fixture.stores.photos.add([second, first], family: fixture.family, entry: noon.id)
        _ = try await fixture.stores.photos.add([later], family: fixture.family, entry: evening.id)
        _ = try await fixture.entry("다음 날", at: "2026-11-02T23:59", children: [child.id])
        _ = try await fixture.entry("전날", at: "2026-10-31T23:59", children: [child.id])
        _ = try await fixture.entry("12월", at: "2026-12-01T00:00", children: [child.id])
        let days = try await fixture.stores.entries.days(
            family: fixture.family, from: try SolarDate(iso: "2026-11-01"), through: try SolarDate(iso: "2026-11-30"))
        #expect(days.count == 2)
        #expect(days[try SolarDate(iso: "2026-11-01")] == DaySummary(entries: 3, firstPhoto: second.id))
        #expect(days[try SolarDate(iso: "2026-11-02")] == DaySummary(entries: 1, firstPhoto: nil))
        // Another family's diary is not counted.
        let other = try await fixture.stores.entries.days(
            family: FamilyID(), from: try SolarDate(iso: "2026-11-01"), through: try SolarDate(iso: "2026-11-30"))
        #expect(other.isEmpty)
    }

    @Test(arguments: Engine.available) func earlierYearsOnTheSameSolarOrLunarDay(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let child = try await fixture.child()
        _ = try await fixture.entry("작년 오늘", at: "2025-11-22T09:00", children: [child.id])
        _ = try await fixture.entry("재작년 오늘", at: "2024-11-22T20:00", children: [child.id])
        _ = try await fixture.entry("올해 오늘", at: "2026-11-22T08:00", children: [child.id])
        _ = try await fixture.entry("다른 날", at: "2025-11-23T09:00", children: [child.id])
        _ = try await fixture.entry("작년 설날", at: "2025-01-29T10:00", children: [child.id])
        let store = fixture.stores.entries
        let solar = try await store.onThisDay(family: fixture.family, OnThisDay(date: try SolarDate(iso: "2026-11-22"), includeLunar: false))
        #expect(solar.map(\.content.title) == ["작년 오늘", "재작년 오늘"])
        let seollal = try await store.onThisDay(family: fixture.family, OnThisDay(date: try SolarDate(iso: "2026-02-17"), includeLunar: true))
        #expect(seollal.map(\.content.title) == ["작년 설날"])
    }
}

/// A new entry sent again with its idempotency key (a draft written offline, an answer lost) is made once, for a day.
@Suite struct IdempotentCreateTests {
    final class FakeTime: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        func advance(seconds: Double) { now.withLock { $0 += seconds } }
    }

    @Test(arguments: Engine.available) func aKeyMakesOneEntryForADay(engine: Engine) async throws {
        let time = FakeTime()
        let fixture = try await StoreFixture(engine, clock: Clock { time.now.withLock { $0 } })
        let child = try await fixture.child()
        let content = try EntryContent(title: "첫 걸음", body: "", date: try LocalDateTime(iso: "2026-11-22T09:30"), childIDs: [child.id])
        let entries = fixture.stores.entries
        let first = try await entries.create(family: fixture.family, content: content, photos: [], idempotencyKey: "draft-1")
        #expect(!first.replayed)
        // Sent again, even with other text: the key's entry comes back, and nothing new is made.
        var changed = content
        changed.title = "첫 걸음!"
        let again = try await entries.create(family: fixture.family, content: changed, photos: [], idempotencyKey: "draft-1")
        #expect(again.replayed && again.entry.id == first.entry.id && again.entry.content.title == "첫 걸음")
        // The same key in another family is that family's own.
        let other = try await fixture.otherFamily()
        let theirs = try await fixture.child("바다", in: other)
        var theirContent = content
        theirContent.childIDs = [theirs.id]
        #expect(try await !entries.create(family: other, content: theirContent, photos: [], idempotencyKey: "draft-1").replayed)
        // A day later the key is forgotten.
        time.advance(seconds: idempotencyLifetime + 1)
        let later = try await entries.create(family: fixture.family, content: content, photos: [], idempotencyKey: "draft-1")
        #expect(!later.replayed && later.entry.id != first.entry.id)
        // A key whose entry was deleted since is a conflict, never a new entry.
        _ = try await entries.delete(family: fixture.family, id: later.entry.id, by: nil)
        await #expect(throws: StoreError.self) {
            try await entries.create(family: fixture.family, content: content, photos: [], idempotencyKey: "draft-1")
        }
        #expect(try await entries.list(family: fixture.family, after: nil, limit: 50).items.map(\.id) == [first.entry.id])
    }

    @Test(arguments: Engine.available) func racingRequestsWithOneKeyMakeOneEntry(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let child = try await fixture.child()
        let content = try EntryContent(title: "경주", body: "", date: try LocalDateTime(iso: "2026-11-22T09:30"), childIDs: [child.id])
        let entries = fixture.stores.entries
        let made = try await withThrowingTaskGroup(of: EntryID.self) { group in
            for _ in 0..<8 {
                group.addTask { try await entries.create(family: fixture.family, content: content, photos: [], idempotencyKey: "same").entry.id }
            }
            return try await group.reduce(into: Set<EntryID>()) { $0.insert($1) }
        }
        #expect(made.count == 1)
        #expect(try await entries.list(family: fixture.family, after: nil, limit: 50).items.count == 1)
    }
}

/// An edit sent with the version it was made from (an edit written offline) is written only while the entry is
/// still that version; every update makes a new version, even within one millisecond.
@Suite struct VersionedUpdateTests {
    @Test(arguments: Engine.available) func anEditOfAnOlderVersionIsRefusedAndWritesNothing(engine: Engine) async throws {
        // A clock that stands still: two updates in the same millisecond must still differ in version.
        let fixture = try await StoreFixture(engine, clock: Clock { Date(timeIntervalSince1970: 1_800_000_000) })
        let child = try await fixture.child()
        let entries = fixture.stores.entries
        var content = try EntryContent(title: "처음", body: "", date: try LocalDateTime(iso: "2026-11-22T09:30"), childIDs: [child.id])
        let made = try await entries.create(family: fixture.family, content: content)
        content.title = "집에서 고침"
        let home = try await entries.update(family: fixture.family, id: made.id, content: content, photos: nil, expecting: made.version).entry
        #expect(home.version > made.version && home.content.title == "집에서 고침")
        content.title = "지하철에서 고침"
        await #expect(throws: StoreError.changed(kind: "entry", id: made.id.description)) {
            try await entries.update(family: fixture.family, id: made.id, content: content, photos: nil, expecting: made.version)
        }
        #expect(try await entries.get(family: fixture.family, id: made.id).content.title == "집에서 고침")
        // Against the version it now is, the same edit goes through; without a version, as before.
        let subway = try await entries.update(family: fixture.family, id: made.id, content: content, photos: nil, expecting: home.version).entry
        #expect(subway.version > home.version && subway.content.title == "지하철에서 고침")
        let plain = try await entries.update(family: fixture.family, id: made.id, content: content).entry
        #expect(plain.version > subway.version)
    }

    @Test(arguments: Engine.available) func ofTwoRacingEditsOfOneVersionOneWins(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let child = try await fixture.child()
        let entries = fixture.stores.entries
        let made = try await entries.create(
            family: fixture.family,
            content: try EntryContent(title: "경주", body: "", date: try LocalDateTime(iso: "2026-11-22T09:30"), childIDs: [child.id]))
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<6 {
                group.addTask {
                    var content = made.content
                    content.title = "고침 \(index)"
                    do {
                        _ = try await entries.update(family: fixture.family, id: made.id, content: content, photos: nil, expecting: made.version)
                        return true
                    } catch StoreError.changed { return false }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)
    }
}
