import Diary
import Foundation
import KoreanCalendar
import Persistence
import Synchronization
import Testing

/// The trash on both engines: what a delete takes along, a restore that puts back exactly what was there (IDs,
/// order, tags, comments, hearts, search hits), what must come back first, and the sweep that deletes for good only
/// what is due, releasing only files no row uses.
@Suite struct TrashStoreTests {
    final class FakeTime: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        func advance(days: Double) { now.withLock { $0 += days * 86_400 } }
    }

    func photo(_ fixture: StoreFixture, _ n: Int) -> Photo {
        Photo(
            familyID: fixture.family, sha256: String(format: "%064x", n), mimeType: "image/jpeg", byteCount: 1000 + n, width: 400,
            height: 300, orientation: 1, takenLocal: nil, takenOffset: nil, latitude: nil, longitude: nil, cameraMake: nil,
            cameraModel: nil, createdAt: Date(timeIntervalSince1970: 1_800_000_000))
    }

    /// An entry with everything that can hang on it, as a family makes it.
    struct Made {
        let entry: Entry
        let photos: [Photo]
        let comments: [Diary.Comment]
        let hearts: [Heart]
        let grandma: UserID
    }

    func make(_ fixture: StoreFixture, _ title: String = "첫 나들이", photos numbers: [Int] = [1, 2, 3]) async throws -> Made {
        let child = try await fixture.child()
        let grandma = try await fixture.grandmaJoins()
        let mom: UserID? = try await fixture.stores.accounts.user(named: "kim")
        let content = try EntryContent(
            title: title, body: "공원에서 처음으로 걸었다.\n할머니도 오셨다.", date: try LocalDateTime(iso: "2026-05-05T10:30"),
            childIDs: [child.id], tags: ["나들이", "첫걸음"], place: try Place(name: "올림픽공원", latitude: 37.52, longitude: 127.12))
        let made = try await fixture.stores.entries.create(family: fixture.family, content: content, photos: [], author: mom)
        let photos = try await fixture.stores.photos.add(numbers.map { photo(fixture, $0) }, family: fixture.family, entry: made.id)
        let reactions = fixture.stores.reactions
        let first = try await reactions.addComment(family: fixture.family, on: .entry(made.id), author: grandma, text: "잘 걷네!")
        let second = try await reactions.addComment(family: fixture.family, on: .entry(made.id), author: try #require(mom), text: "네 :)")
        _ = try await reactions.setHeart(family: fixture.family, on: .entry(made.id), user: grandma, on: true)
        let hearts = try await reactions.setHeart(family: fixture.family, on: .entry(made.id), user: try #require(mom), on: true)
        try await fixture.stores.news.markRead(family: fixture.family, user: grandma, entries: [made.id])
        let entry = try await fixture.stores.entries.get(family: fixture.family, id: made.id)
        return Made(entry: entry, photos: photos, comments: [first, second], hearts: hearts, grandma: grandma)
    }

    func hits(_ fixture: StoreFixture, _ text: String) async throws -> [String] {
        try await fixture.stores.search.search(family: fixture.family, try SearchQuery(text), after: nil, limit: 50).items.map(\.id)
    }

    @Test(arguments: Engine.available) func anEntryGoesWithEverythingOnItAndComesBackExactly(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let made = try await make(fixture)
        let (entries, trash, reactions) = (fixture.stores.entries, fixture.stores.trash, fixture.stores.reactions)
        let family = fixture.family
        #expect(try await hits(fixture, "공원") == [made.entry.id.description])

        let item = try await entries.delete(family: family, id: made.entry.id, by: made.grandma)
        #expect(item.kind == .entry && item.itemID == made.entry.id.description && item.label == "첫 나들이")
        #expect(item.deletedBy == made.grandma && item.photoIDs == made.photos.map(\.id))
        // Gone from everywhere it showed…
        await #expect(throws: StoreError.self) { try await entries.get(family: family, id: made.entry.id) }
        #expect(try await entries.list(family: family, filter: TimelineFilter(), after: nil, limit: 10).items.isEmpty)
        #expect(try await hits(fixture, "공원").isEmpty)
        #expect(try await entries.tags(family: family).isEmpty)
        await #expect(throws: StoreError.self) { try await reactions.comments(family: family, on: .entry(made.entry.id)) }
        // …but its photos are kept, and the trash lists it.
        #expect(try await fixture.stores.photos.referencedHashes() == Set(made.photos.map(\.sha256)))
        #expect(try await trash.list(family: family).items == [item])
        #expect(try await trash.list(family: try await fixture.otherFamily()).items.isEmpty)

        let restored = try await trash.restore(family: family, id: item.id, withParent: false, as: .administrator)
        #expect(restored == [TrashRestore(item: item, leftOut: [])])
        #expect(try await entries.get(family: family, id: made.entry.id) == made.entry)
        #expect(try await fixture.stores.photos.photos(family: family, entry: made.entry.id) == made.photos)
        #expect(try await reactions.comments(family: family, on: .entry(made.entry.id)) == made.comments)
        #expect(try await reactions.hearts(family: family, on: .entry(made.entry.id)) == made.hearts)
        #expect(try await fixture.stores.news.unread(family: family, user: made.grandma, among: [made.entry]).isEmpty)
        #expect(try await entries.tags(family: family) == ["나들이", "첫걸음"])
        #expect(try await hits(fixture, "공원") == [made.entry.id.description])
        #expect(try await hits(fixture, "나들이") == [made.entry.id.description])
        #expect(try await trash.list(family: family).items.isEmpty)
        await #expect(throws: StoreError.self) { try await trash.restore(family: family, id: item.id, withParent: false, as: .administrator) }
        #expect(try await fixture.integrityCheck() == "ok")
    }

    @Test(arguments: Engine.available) func aPhotoComesBackToItsPlaceAndAsksForItsEntryWhenThatIsTrashedToo(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let made = try await make(fixture, photos: [1, 2, 3, 4])
        let (photos, trash, family) = (fixture.stores.photos, fixture.stores.trash, fixture.family)

        let second = try await photos.remove(made.photos[1].id, family: family, entry: made.entry.id, by: nil)
        #expect(second.kind == .photo && second.parent == TrashParent(kind: .entry, id: made.entry.id.description))
        #expect(try await photos.photos(family: family, entry: made.entry.id).map(\.id) == [0, 2, 3].map { made.photos[$0].id })
        _ = try await trash.restore(family: family, id: second.id, withParent: false, as: .administrator)
        #expect(try await photos.photos(family: family, entry: made.entry.id) == made.photos)

        // The photo, then its entry: the photo cannot come back alone, and comes back with it when asked.
        let photo = try await photos.remove(made.photos[0].id, family: family, entry: made.entry.id, by: nil)
        let entry = try await fixture.stores.entries.delete(family: family, id: made.entry.id, by: nil)
        await #expect(throws: StoreError.conflict(field: "parent", message: "the entry it belongs to is in the trash too: restore both (withParent)")) {
            try await trash.restore(family: family, id: photo.id, withParent: false, as: .administrator)
        }
        let both = try await trash.restore(family: family, id: photo.id, withParent: true, as: .administrator)
        #expect(both.map(\.item.id) == [entry.id, photo.id])
        #expect(try await photos.photos(family: family, entry: made.entry.id) == made.photos)
        #expect(try await trash.list(family: family).items.isEmpty)
    }

    @Test(arguments: Engine.available) func memosAndCommentsComeBackAndAnotherFamilyCannotTouchThem(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let made = try await make(fixture)
        let (trash, family) = (fixture.stores.trash, fixture.family)
        let memo = try await fixture.stores.memos.create(family: family, content: try MemoContent(title: "준비물", body: "기저귀, 물티슈"))
        let trashedMemo = try await fixture.stores.memos.delete(family: family, id: memo.id, by: nil)
        #expect(try await hits(fixture, "물티슈").isEmpty)
        let comment = try await fixture.stores.reactions.deleteComment(family: family, id: made.comments[0].id, by: made.grandma, asOwner: false)
        #expect(comment.label == "잘 걷네!" && comment.parent == TrashParent(kind: .entry, id: made.entry.id.description))
        #expect(try await trash.list(family: family).items.map(\.id) == [comment.id, trashedMemo.id])

        let other = try await fixture.otherFamily()
        await #expect(throws: StoreError.self) { try await trash.restore(family: other, id: trashedMemo.id, withParent: false, as: .administrator) }
        await #expect(throws: StoreError.self) { try await trash.get(family: other, id: comment.id) }
        await #expect(throws: StoreError.self) { try await trash.purge(family: other, id: comment.id) }

        _ = try await trash.restore(family: family, id: trashedMemo.id, withParent: false, as: .administrator)
        #expect(try await fixture.stores.memos.get(family: family, id: memo.id) == memo)
        #expect(try await hits(fixture, "물티슈") == [memo.id.description])
        _ = try await trash.restore(family: family, id: comment.id, withParent: false, as: .administrator)
        #expect(try await fixture.stores.reactions.comments(family: family, on: .entry(made.entry.id)) == made.comments)
    }

    @Test(arguments: Engine.available) func whatIsGoneForGoodMeanwhileIsLeftOutAndSaidSo(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let made = try await make(fixture)
        let (trash, family) = (fixture.stores.trash, fixture.family)
        let child = try #require(made.entry.content.childIDs.first)
        let sister = try await fixture.child("바다")
        let both = try EntryContent(
            title: made.entry.content.title, body: made.entry.content.body, date: made.entry.content.date, childIDs: [child, sister.id],
            tags: made.entry.content.tags)
        _ = try await fixture.stores.entries.update(family: family, id: made.entry.id, content: both, photos: nil, expecting: nil)
        let item = try await fixture.stores.entries.delete(family: family, id: made.entry.id, by: nil)
        _ = try await fixture.stores.children.delete(family: family, id: child, by: nil)
        let restored = try await trash.restore(family: family, id: item.id, withParent: false, as: .administrator)
        #expect(restored.first?.leftOut == ["entryChildren.childId \(child)"])
        #expect(try await fixture.stores.entries.get(family: family, id: made.entry.id).content.childIDs == [sister.id])

        // With no child left, the entry cannot come back (every entry names one), and stays in the trash.
        let again = try await fixture.stores.entries.delete(family: family, id: made.entry.id, by: nil)
        _ = try await fixture.stores.children.delete(family: family, id: sister.id, by: nil)
        await #expect(throws: StoreError.conflict(field: "entry", message: "every child the entry named has been deleted for good")) {
            try await trash.restore(family: family, id: again.id, withParent: false, as: .administrator)
        }
        #expect(try await trash.list(family: family).items.filter { $0.kind == .entry }.map(\.id) == [again.id])
    }

    @Test(arguments: Engine.available) func theSweepDeletesWhatIsDueAndReleasesOnlyFilesNoRowUses(engine: Engine) async throws {
        let time = FakeTime()
        let fixture = try await StoreFixture(engine, clock: Clock { time.now.withLock { $0 } })
        let (trash, photos, family) = (fixture.stores.trash, fixture.stores.photos, fixture.family)
        // Two entries share photo 2 (one row per content): deleting one keeps it for the other.
        let first = try await make(fixture, "첫째 날", photos: [1, 2])
        let second = try await fixture.entry("둘째 날", at: "2026-05-06T10:00", children: first.entry.content.childIDs)
        _ = try await photos.add([photo(fixture, 2)], family: family, entry: second.id)
        let item = try await fixture.stores.entries.delete(family: family, id: first.entry.id, by: nil)

        time.advance(days: 29)
        #expect(try await trash.sweep().isEmpty)
        #expect(try await trash.list(family: family).items == [item])
        time.advance(days: 1.01)
        #expect(try await trash.sweep() == [ReleasedPhotoFile(sha256: first.photos[0].sha256, mimeType: "image/jpeg")])
        #expect(try await trash.list(family: family).items.isEmpty)
        #expect(try await photos.referencedHashes() == [first.photos[1].sha256])
        #expect(try await photos.photos(family: family, entry: second.id).map(\.sha256) == [first.photos[1].sha256])

        // A family that keeps its trash a week.
        await #expect(throws: ValidationError.self) { try await trash.setRetention(family: family, days: 6) }
        await #expect(throws: ValidationError.self) { try await trash.setRetention(family: family, days: 366) }
        try await trash.setRetention(family: family, days: 7)
        #expect(try await trash.retention(family: family) == 7)
        let memo = try await fixture.stores.memos.create(family: family, content: try MemoContent(title: "메모", body: ""))
        let trashed = try await fixture.stores.memos.delete(family: family, id: memo.id, by: nil)
        #expect(trashed.daysLeft(keepingDays: 7, now: time.now.withLock { $0 }) == 7)
        time.advance(days: 6.9)
        #expect(try await trash.sweep().isEmpty)
        #expect(try await trash.list(family: family).items.count == 1)
        time.advance(days: 0.2)
        _ = try await trash.sweep()
        #expect(try await trash.list(family: family).items.isEmpty)
        await #expect(throws: StoreError.self) { try await fixture.stores.memos.get(family: family, id: memo.id) }
    }

    @Test(arguments: Engine.available) func emptyingTheTrashKeepsWhatOtherRowsStillUse(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let (trash, photos, family) = (fixture.stores.trash, fixture.stores.photos, fixture.family)
        let made = try await make(fixture, photos: [1, 2])
        let child = try #require(made.entry.content.childIDs.first)
        #expect(try await photos.setProfilePhoto(made.photos[0].id, family: family, child: child).isEmpty)
        _ = try await fixture.stores.entries.delete(family: family, id: made.entry.id, by: nil)
        let released = try await trash.empty(family: family)
        #expect(released == [ReleasedPhotoFile(sha256: made.photos[1].sha256, mimeType: "image/jpeg")])
        #expect(try await photos.referencedHashes() == [made.photos[0].sha256])
        #expect(try await trash.list(family: family).items.isEmpty)
        #expect(try await fixture.integrityCheck() == "ok")
    }

    /// Everything a child had, as the interfaces show it.
    struct ChildWorld: Equatable {
        let child: Child
        let entries: [Entry]
        let events: [Event]
        let anniversaries: [Anniversary]
        let measurements: [GrowthMeasurement]
        let shots: [VaccinationShot]
        let choices: [Vaccine.Choice: Vaccine]
        let skipped: Set<DoseKey>
        let profilePhoto: Photo?
    }

    func world(_ fixture: StoreFixture, _ child: ChildID) async throws -> ChildWorld {
        let (stores, family) = (fixture.stores, fixture.family)
        let vaccinations = try await stores.vaccinations.vaccinations(family: family, child: child)
        return ChildWorld(
            child: try await stores.children.get(family: family, id: child),
            entries: try await stores.entries.list(family: family, filter: TimelineFilter(), after: nil, limit: 50).items,
            events: try await stores.events.list(family: family, child: nil, after: nil, limit: 50).items,
            anniversaries: try await stores.anniversaries.all(family: family),
            measurements: try await stores.growth.measurements(family: family, child: child),
            shots: vaccinations.shots, choices: vaccinations.choices, skipped: vaccinations.skipped,
            profilePhoto: try await stores.photos.profilePhoto(family: family, child: child))
    }

    @Test(arguments: Engine.available) func aChildGoesWithEverythingOnlyTheirsAndComesBackWhole(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let (stores, family) = (fixture.stores, fixture.family)
        let sky = try await stores.children.create(
            family: family,
            profile: try ChildProfile(
                name: "하늘", birthDate: .lunar(try LunarDate(iso: "2023-02-10", isLeapMonth: true)),
                residentNumber: try ResidentNumber("230331-4123456")))
        let sea = try await fixture.child("바다")
        let alone = try await make(fixture, "하늘만", photos: [1, 2])  // about a child of its own, made by `make`
        let only = try await fixture.entry("하늘 혼자", at: "2026-01-01T10:00", children: [sky.id], tags: ["혼자"])
        let both = try await fixture.entry("둘이", at: "2026-01-02T10:00", children: [sky.id, sea.id], tags: ["같이"])
        let visitPhotos = try await stores.photos.add([photo(fixture, 7)], family: family, entry: nil)
        _ = try await stores.events.create(
            family: family, details: try EventDetails(childID: sky.id, kind: .hospital, title: "검진", date: try SolarDate(iso: "2026-01-03")),
            photos: visitPhotos.map(\.id))
        _ = try await stores.anniversaries.create(
            family: family, details: try AnniversaryDetails(name: "하늘 기념일", calendar: .lunar, month: 3, day: 2, isLeapMonth: false, childID: sky.id))
        _ = try await stores.growth.add(
            family: family, try GrowthMeasurement(childID: sky.id, kind: .weight, value: 7.25, unit: .kilograms, date: try SolarDate(iso: "2025-06-01")))
        _ = try await stores.vaccinations.record(
            family: family,
            try VaccinationShot(childID: sky.id, record: VaccinationRecord(product: .bcg, date: try SolarDate(iso: "2023-04-01")), place: "보건소", lot: nil, productName: nil))
        try await stores.vaccinations.choose(family: family, child: sky.id, .rotavirus, .rv1)
        try await stores.vaccinations.setSkipped(family: family, child: sky.id, DoseKey(vaccine: .hepA, number: 2), true)
        let profile = try await stores.photos.add([photo(fixture, 8)], family: family, entry: nil)
        _ = try await stores.photos.setProfilePhoto(profile[0].id, family: family, child: sky.id)
        let before = try await world(fixture, sky.id)
        let hashes = try await stores.photos.referencedHashes()

        let item = try await stores.children.delete(family: family, id: sky.id, by: alone.grandma)
        #expect(item.kind == .child && item.label == "하늘")
        await #expect(throws: StoreError.self) { try await stores.children.get(family: family, id: sky.id) }
        await #expect(throws: StoreError.self) { try await stores.entries.get(family: family, id: only.id) }
        #expect(try await stores.entries.get(family: family, id: both.id).content.childIDs == [sea.id])
        #expect(try await stores.events.list(family: family, child: nil, after: nil, limit: 50).items.isEmpty)
        #expect(try await stores.anniversaries.all(family: family).isEmpty)
        #expect(try await stores.photos.referencedHashes() == hashes)
        #expect(try await hits(fixture, "혼자").isEmpty)
        // The resident number stays sealed in the trash, never plain.
        let sealed = try #require(try await fixture.data("SELECT residentNumberSealed FROM trashItems"))
        #expect(!String(decoding: sealed, as: UTF8.self).contains("4123456"))
        #expect(try await fixture.count("SELECT count(*) FROM trashItems WHERE snapshot LIKE '%4123456%'") == 0)

        // A comment on an entry the child took along waits for the child.
        let comment = try await stores.reactions.deleteComment(family: family, id: alone.comments[0].id, by: alone.grandma, asOwner: false)
        _ = try await stores.children.delete(family: family, id: try #require(alone.entry.content.childIDs.first), by: nil)
        let listed = try await stores.trash.list(family: family).items
        let holder = try #require(listed.first { $0.kind == .child && $0.label == "하늘" && $0.id != item.id })
        #expect(listed.first { $0.id == comment.id }?.waitsFor == holder.id)
        #expect(try await stores.trash.get(family: family, id: comment.id).waitsFor == holder.id)
        await #expect(throws: StoreError.self) { try await stores.trash.restore(family: family, id: comment.id, withParent: false, as: .administrator) }
        #expect(try await stores.trash.restore(family: family, id: comment.id, withParent: true, as: .administrator).map(\.item.id) == [holder.id, comment.id])
        #expect(try await stores.reactions.comments(family: family, on: .entry(alone.entry.id)) == alone.comments)

        _ = try await stores.trash.restore(family: family, id: item.id, withParent: false, as: .administrator)
        #expect(try await world(fixture, sky.id) == before)
        #expect(try await stores.entries.get(family: family, id: both.id).content.childIDs == [sky.id, sea.id])
        #expect(try await hits(fixture, "혼자") == [only.id.description])
        #expect(try await fixture.integrityCheck() == "ok")
    }

    @Test(arguments: Engine.available) func visitsAnniversariesMeasurementsAndDosesComeBackAndAskForTheirChild(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let (stores, family) = (fixture.stores, fixture.family)
        let child = try await fixture.child()
        let stored = try await stores.photos.add([photo(fixture, 5), photo(fixture, 6)], family: family, entry: nil)
        let visit = try await stores.events.create(
            family: family, details: try EventDetails(childID: child.id, kind: .hospital, title: "감기", date: try SolarDate(iso: "2026-01-03")),
            photos: stored.map(\.id))
        let day = try await stores.anniversaries.create(
            family: family, details: try AnniversaryDetails(name: "첫 만남", calendar: .solar, month: 5, day: 5, childID: child.id))
        let weight = try await stores.growth.add(
            family: family, try GrowthMeasurement(childID: child.id, kind: .weight, value: 9.5, unit: .kilograms, date: try SolarDate(iso: "2025-06-01")))
        let dose = try await stores.vaccinations.record(
            family: family,
            try VaccinationShot(childID: child.id, record: VaccinationRecord(product: .hepB, date: try SolarDate(iso: "2025-04-01")), place: nil, lot: "A1", productName: "헤파박스"))

        let items = [
            try await stores.events.delete(family: family, id: visit.id, by: nil),
            try await stores.anniversaries.delete(family: family, id: day.id, by: nil),
            try await stores.growth.delete(family: family, child: child.id, id: weight.id, by: nil),
            try await stores.vaccinations.delete(family: family, child: child.id, id: dose.id, by: nil),
        ]
        #expect(items.map(\.label) == ["감기", "첫 만남", "9.5 kg · 2025-06-01", "헤파박스 · 2025-04-01"])
        #expect(items.allSatisfy { $0.parent == TrashParent(kind: .child, id: child.id.description) })
        #expect(items[0].photoIDs == stored.map(\.id))
        #expect(try await stores.events.list(family: family, child: nil, after: nil, limit: 10).items.isEmpty)
        #expect(try await stores.vaccinations.vaccinations(family: family, child: child.id).shots.isEmpty)
        for item in items { _ = try await stores.trash.restore(family: family, id: item.id, withParent: false, as: .administrator) }
        #expect(try await stores.events.get(family: family, id: visit.id) == visit)
        #expect(try await stores.anniversaries.get(family: family, id: day.id) == day)
        #expect(try await stores.growth.measurements(family: family, child: child.id) == [weight])
        #expect(try await stores.vaccinations.vaccinations(family: family, child: child.id).shots == [dose])

        // A visit whose child went to the trash after it comes back only with the child.
        let again = try await stores.events.delete(family: family, id: visit.id, by: nil)
        let gone = try await stores.children.delete(family: family, id: child.id, by: nil)
        await #expect(throws: StoreError.self) { try await stores.trash.restore(family: family, id: again.id, withParent: false, as: .administrator) }
        let back = try await stores.trash.restore(family: family, id: again.id, withParent: true, as: .administrator)
        #expect(back.map(\.item.id) == [gone.id, again.id])
        #expect(try await stores.events.get(family: family, id: visit.id) == visit)
        #expect(try await stores.anniversaries.get(family: family, id: day.id) == day)
        #expect(try await stores.trash.list(family: family).items.isEmpty)
    }
}
