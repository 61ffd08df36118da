import Diary
import Foundation
import KoreanCalendar
import Testing

@testable import DiaryStore

/// Photos kept with a hospital visit: in order, in the family only, and gone (with their files) when the visit or
/// the child goes, while a photo an entry shares stays.
@Suite struct EventPhotoTests {
    func photo(_ fixture: StoreFixture, _ n: Int, family: FamilyID? = nil, createdAt: Date = Date()) -> Photo {
        Photo(
            familyID: family ?? fixture.family, sha256: String(repeating: String(n), count: 64), mimeType: "image/jpeg",
            byteCount: 1, width: 1, height: 1, createdAt: createdAt)
    }

    func visit(_ fixture: StoreFixture, child: ChildID) async throws -> Event {
        try await EventStore(fixture.database).create(
            family: fixture.family,
            details: try EventDetails(childID: child, kind: .hospital, title: "감기 진료", date: try SolarDate(iso: "2026-11-20")))
    }

    @Test func photosStayWithTheirVisitInOrderAndGoWithIt() async throws {
        let fixture = try await StoreFixture()
        let child = try await fixture.child()
        let photos = PhotoStore(fixture.database)
        let old = Date().addingTimeInterval(-3 * 86_400)
        let stored = try await photos.add([photo(fixture, 1, createdAt: old), photo(fixture, 2, createdAt: old)], family: fixture.family, entry: nil)
        let event = try await visit(fixture, child: child.id)
        try await photos.attach([stored[1].id, stored[0].id], family: fixture.family, event: event.id)
        #expect(try await photos.eventPhotos(family: fixture.family)[event.id]?.map(\.id) == [stored[1].id, stored[0].id])
        // Attached, they are no longer unattached uploads.
        #expect(try await photos.deleteUnattached(olderThan: 86_400).isEmpty)
        // A photo an entry also shows stays when the visit goes; the other goes with its file.
        let entry = try await fixture.entry("병원 다녀온 날", at: "2026-11-20T18:00", children: [child.id])
        _ = try await photos.add([photo(fixture, 1)], family: fixture.family, entry: entry.id)
        let released = try await EventStore(fixture.database).delete(family: fixture.family, id: event.id)
        #expect(released.map(\.sha256) == [stored[1].sha256])
        #expect(try await photos.eventPhotos(family: fixture.family).isEmpty)
        #expect(try await photos.get(family: fixture.family, id: stored[0].id).id == stored[0].id)
    }

    @Test func aChildsVisitsTakeTheirPhotosAlong() async throws {
        let fixture = try await StoreFixture()
        let child = try await fixture.child()
        let photos = PhotoStore(fixture.database)
        let stored = try await photos.add([photo(fixture, 3)], family: fixture.family, entry: nil)
        let event = try await visit(fixture, child: child.id)
        try await photos.attach(stored.map(\.id), family: fixture.family, event: event.id)
        let released = try await ChildStore(fixture.database).delete(family: fixture.family, id: child.id)
        #expect(released.map(\.sha256) == [stored[0].sha256])
    }

    @Test func anotherFamilysPhotoOrVisitCannotBeLinked() async throws {
        let fixture = try await StoreFixture()
        let child = try await fixture.child()
        let other = try await fixture.otherFamily()
        let photos = PhotoStore(fixture.database)
        let theirs = try await photos.add([photo(fixture, 4, family: other)], family: other, entry: nil)
        let event = try await visit(fixture, child: child.id)
        await #expect(throws: StoreError.self) { try await photos.attach(theirs.map(\.id), family: fixture.family, event: event.id) }
        let ours = try await photos.add([photo(fixture, 5)], family: fixture.family, entry: nil)
        await #expect(throws: StoreError.self) { try await photos.attach(ours.map(\.id), family: other, event: event.id) }
        #expect(try await photos.eventPhotos(family: fixture.family).isEmpty)
    }
}
