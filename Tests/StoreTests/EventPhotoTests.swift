import Diary
import Foundation
import KoreanCalendar
import Persistence
import Testing

import DiaryStore

/// Photos kept with a hospital visit: in order, in the family only, and gone (with their files) when the visit or
/// the child goes, while a photo an entry shares stays.
@Suite struct EventPhotoTests {
    func photo(_ fixture: StoreFixture, _ n: Int, family: FamilyID? = nil, createdAt: Date = Date()) -> Photo {
        Photo(
            familyID: family ?? fixture.family, sha256: String(repeating: String(n), count: 64), mimeType: "image/jpeg",
            byteCount: 1, width: 1, height: 1, createdAt: createdAt)
    }

    func details(child: ChildID) throws -> EventDetails {
        try EventDetails(childID: child, kind: .hospital, title: "감기 진료", date: try SolarDate(iso: "2026-11-20"))
    }

    @Test(arguments: Engine.available) func photosStayWithTheirVisitInOrderAndGoWithIt(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let child = try await fixture.child()
        let photos = fixture.stores.photos
        let events = fixture.stores.events
        let old = Date().addingTimeInterval(-3 * 86_400)
        let stored = try await photos.add([photo(fixture, 1, createdAt: old), photo(fixture, 2, createdAt: old)], family: fixture.family, entry: nil)
        let event = try await events.create(family: fixture.family, details: try details(child: child.id), photos: [stored[1].id, stored[0].id])
        #expect(event.photoIDs == [stored[1].id, stored[0].id])
        #expect(try await events.list(family: fixture.family, after: nil, limit: 10).items.first?.photoIDs == event.photoIDs)
        // Kept with a visit, they are no longer unattached uploads.
        #expect(try await photos.deleteUnattached(olderThan: 86_400).isEmpty)
        // A replace without photos keeps them; with a list, it reorders and drops.
        #expect(try await events.update(family: fixture.family, id: event.id, details: try details(child: child.id)).event.photoIDs == event.photoIDs)
        let (reordered, released) = try await events.update(
            family: fixture.family, id: event.id, details: try details(child: child.id), photos: [stored[0].id])
        #expect(reordered.photoIDs == [stored[0].id] && released.map(\.sha256) == [stored[1].sha256])
        // A photo an entry also shows stays when the visit goes.
        let entry = try await fixture.entry("병원 다녀온 날", at: "2026-11-20T18:00", children: [child.id])
        _ = try await photos.add([photo(fixture, 1)], family: fixture.family, entry: entry.id)
        let trashed = try await events.delete(family: fixture.family, id: event.id, by: nil)
        #expect(try await fixture.stores.trash.purge(family: fixture.family, id: trashed.id).isEmpty)
        #expect(try await photos.get(family: fixture.family, id: stored[0].id).id == stored[0].id)
    }

    @Test(arguments: Engine.available) func aChildsVisitsTakeTheirPhotosAlong(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let child = try await fixture.child()
        let stored = try await fixture.stores.photos.add([photo(fixture, 3)], family: fixture.family, entry: nil)
        _ = try await fixture.stores.events.create(family: fixture.family, details: try details(child: child.id), photos: stored.map(\.id))
        let trashed = try await fixture.stores.children.delete(family: fixture.family, id: child.id, by: nil)
        #expect(trashed.photoIDs == [stored[0].id])
        #expect(try await fixture.stores.photos.referencedHashes() == [stored[0].sha256])  // the trash keeps it
        let released = try await fixture.stores.trash.purge(family: fixture.family, id: trashed.id)
        #expect(released.map(\.sha256) == [stored[0].sha256])
    }

    @Test(arguments: Engine.available) func anotherFamilysPhotoCannotBeKeptWithAVisit(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let child = try await fixture.child()
        let other = try await fixture.otherFamily()
        let theirs = try await fixture.stores.photos.add([photo(fixture, 4, family: other)], family: other, entry: nil)
        let events = fixture.stores.events
        await #expect(throws: StoreError.self) {
            try await events.create(family: fixture.family, details: try details(child: child.id), photos: theirs.map(\.id))
        }
        #expect(try await events.list(family: fixture.family, after: nil, limit: 10).items.isEmpty)
    }
}
