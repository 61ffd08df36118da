import Diary
import Foundation
import KoreanCalendar
import Persistence
import Synchronization
import Testing

/// Earlier versions of entries on both engines: every edit keeps what it replaced (with its photos, whose files stay),
/// a version comes back as a new edit, versions go with their entry to the trash and back, and what is kept is the
/// newest 50 and every one younger than a year.
@Suite struct EntryVersionTests {
    final class FakeTime: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        func advance(days: Double) { now.withLock { $0 += days * 86_400 } }
    }

    func photo(_ fixture: StoreFixture, _ n: Int) -> Photo {
        Photo(
            familyID: fixture.family, sha256: String(format: "%064x", 900 + n), mimeType: "image/jpeg", byteCount: 1000 + n, width: 400,
            height: 300, orientation: 1, takenLocal: nil, takenOffset: nil, latitude: nil, longitude: nil, cameraMake: nil,
            cameraModel: nil, createdAt: Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test(arguments: Engine.available) func everyEditKeepsWhatItReplacedAndAVersionComesBack(engine: Engine) async throws {
        let time = FakeTime()
        let fixture = try await StoreFixture(engine, clock: Clock { time.now.withLock { $0 } })
        let (entries, photos, family) = (fixture.stores.entries, fixture.stores.photos, fixture.family)
        let mom: UserID = try await fixture.stores.accounts.user(named: "kim")
        let grandma = try await fixture.grandmaJoins()
        let child = try await fixture.child()
        let first = try EntryContent(
            title: "첫 걸음", body: "공원에서\n처음 걸었다.", date: try LocalDateTime(iso: "2026-05-05T10:30"), childIDs: [child.id], tags: ["걸음마"],
            place: try Place(name: "올림픽공원", latitude: 37.52, longitude: 127.12), weather: "맑음")
        let made = try await entries.create(family: family, content: first, photos: [], author: mom)
        let added = try await photos.add([photo(fixture, 1), photo(fixture, 2), photo(fixture, 3)], family: family, entry: made.id)
        let original = try await entries.get(family: family, id: made.id)
        #expect(try await entries.versions(family: family, id: made.id).isEmpty)

        time.advance(days: 1)
        var second = first
        second.body = "공원에서\n세 걸음 걸었다!"
        second.tags = ["걸음마", "공원"]
        let edited = try await entries.update(family: family, id: made.id, content: second, photos: nil, expecting: original.version, by: grandma)
        #expect(edited.released.isEmpty)
        var versions = try await entries.versions(family: family, id: made.id)
        #expect(versions.map(\.number) == [1])
        #expect(versions[0].content == first && versions[0].photoIDs == added.map(\.id))
        #expect(versions[0].savedAt == original.modifiedAt && versions[0].savedBy == mom && versions[0].savedByName == "kim")
        #expect(versions[0].replacedBy == grandma && versions[0].replacedAt == time.now.withLock { $0 })

        // Dropping a photo is an edit too: the version keeps it, and its file stays.
        time.advance(days: 1)
        let (_, released) = try await photos.setPhotos([added[1].id, added[0].id], family: family, entry: made.id, by: mom)
        #expect(released.isEmpty)
        #expect(try await photos.referencedHashes().contains(added[2].sha256))
        versions = try await entries.versions(family: family, id: made.id)
        #expect(versions.map(\.number) == [2, 1] && versions[0].photoIDs == added.map(\.id) && versions[0].savedBy == grandma)

        // Version 1 back: itself an edit, which keeps what it replaced.
        let restored = try await entries.restoreVersion(family: family, id: made.id, number: 1, by: mom).entry
        #expect(restored.content == first && restored.photoIDs == added.map(\.id))
        #expect(try await entries.versions(family: family, id: made.id).map(\.number) == [3, 2, 1])
        await #expect(throws: StoreError.self) { try await entries.restoreVersion(family: family, id: made.id, number: 9, by: nil) }
        await #expect(throws: StoreError.self) { try await entries.versions(family: try await fixture.otherFamily(), id: made.id) }

        // To the trash and back with its versions; purged, the photos only versions held go with it.
        let item = try await entries.delete(family: family, id: made.id, by: nil)
        #expect(Set(item.photoIDs) == Set(added.map(\.id)))
        _ = try await fixture.stores.trash.restore(family: family, id: item.id, withParent: false, as: .administrator)
        #expect(try await entries.versions(family: family, id: made.id).map(\.number) == [3, 2, 1])
        _ = try await photos.setPhotos([], family: family, entry: made.id, by: nil)
        let again = try await entries.delete(family: family, id: made.id, by: nil)
        let gone = try await fixture.stores.trash.purge(family: family, id: again.id)
        #expect(Set(gone.map(\.sha256)) == Set(added.map(\.sha256)))
        #expect(try await photos.referencedHashes().isEmpty)
        #expect(try await fixture.integrityCheck() == "ok")
    }

    @Test(arguments: Engine.available) func theNewestFiftyAndAYearAreKept(engine: Engine) async throws {
        let time = FakeTime()
        let fixture = try await StoreFixture(engine, clock: Clock { time.now.withLock { $0 } })
        let (entries, family) = (fixture.stores.entries, fixture.family)
        let child = try await fixture.child()
        let entry = try await fixture.entry("0", at: "2026-05-05T10:30", children: [child.id])
        let dropped = try await fixture.stores.photos.add([photo(fixture, 9)], family: family, entry: entry.id)
        _ = try await fixture.stores.photos.setPhotos([], family: family, entry: entry.id, by: nil)  // version 1 holds it
        for number in 1...54 {
            var content = entry.content
            content.title = "\(number)"
            _ = try await entries.update(family: family, id: entry.id, content: content, photos: nil, expecting: nil, by: nil)
        }
        #expect(try await entries.versions(family: family, id: entry.id).count == 55)  // all younger than a year
        time.advance(days: 366)
        var content = entry.content
        content.title = "한 해 뒤"
        let released = try await entries.update(family: family, id: entry.id, content: content, photos: nil, expecting: nil, by: nil).released
        let kept = try await entries.versions(family: family, id: entry.id)
        #expect(kept.count == EntryVersion.keptAtLeast && kept.first?.number == 56 && kept.last?.number == 7)
        #expect(released.map(\.sha256) == [dropped[0].sha256])
    }
}
