import Diary
import Foundation
import KoreanCalendar
import Persistence
import Testing

/// Photo rows and imports on both engines: order in an entry, one row per content and family, files released only
/// when their last row goes, and an import that writes each source record once, all or nothing.
@Suite struct PhotoImportStoreTests {
    func photo(_ fixture: StoreFixture, _ n: Int, family: FamilyID? = nil, createdAt: Date = Date(timeIntervalSince1970: 1_800_000_000)) -> Photo {
        Photo(
            familyID: family ?? fixture.family, sha256: String(format: "%064x", n), mimeType: "image/jpeg", byteCount: 1000 + n,
            width: 4032, height: 3024, orientation: 6, takenLocal: "2026-05-05T10:3\(n % 10):00", takenOffset: "+09:00",
            latitude: 37.5665, longitude: 126.978, cameraMake: "Apple", cameraModel: "iPhone 15", createdAt: createdAt)
    }

    @Test(arguments: Engine.available) func anEntrysPhotosKeepTheirOrderAndTheirLastRowReleasesTheFile(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let photos = fixture.stores.photos
        let child = try await fixture.child()
        let entry = try await fixture.entry("어린이날", at: "2026-05-05T18:00", children: [child.id])
        let added = try await photos.add([photo(fixture, 1), photo(fixture, 2), photo(fixture, 3)], family: fixture.family, entry: entry.id)
        #expect(try await photos.photos(family: fixture.family, entry: entry.id) == added)
        #expect(try await photos.get(family: fixture.family, id: added[0].id) == added[0])
        #expect(try await fixture.stores.entries.get(family: fixture.family, id: entry.id).photoIDs == added.map(\.id))

        // The same content again is the same photo, not linked twice.
        let again = try await photos.add([photo(fixture, 2)], family: fixture.family, entry: entry.id)
        #expect(again.map(\.id) == [added[1].id])
        #expect(try await photos.photos(family: fixture.family, entry: entry.id).map(\.id) == added.map(\.id))
        #expect(try await photos.referencedHashes() == Set(added.map(\.sha256)))

        // Reorder and drop one: an edit, whose earlier version keeps the dropped photo (and its file).
        let (reordered, released) = try await photos.setPhotos([added[2].id, added[0].id], family: fixture.family, entry: entry.id)
        #expect(reordered.map(\.id) == [added[2].id, added[0].id])
        #expect(released.isEmpty)
        #expect(try await photos.get(family: fixture.family, id: added[1].id) == added[1])

        // A photo taken off the entry goes to the trash; purged, the version and the profile still hold it.
        let trash = fixture.stores.trash
        #expect(try await photos.setProfilePhoto(added[0].id, family: fixture.family, child: child.id).isEmpty)
        #expect(try await photos.profilePhoto(family: fixture.family, child: child.id) == added[0])
        let first = try await photos.remove(added[0].id, family: fixture.family, entry: entry.id, by: nil)
        #expect(try await photos.get(family: fixture.family, id: added[0].id) == added[0])
        #expect(try await trash.purge(family: fixture.family, id: first.id).isEmpty)
        #expect(try await photos.setProfilePhoto(nil, family: fixture.family, child: child.id).isEmpty)
        #expect(try await photos.profilePhoto(family: fixture.family, child: child.id) == nil)

        // Only when nothing holds a photo any more — the entry, its versions, the trash, a profile — does its file go.
        let item = try await fixture.stores.entries.delete(family: fixture.family, id: entry.id, by: nil)
        #expect(try await photos.referencedHashes() == Set(added.map(\.sha256)))
        #expect(Set(try await trash.purge(family: fixture.family, id: item.id).map(\.sha256)) == Set(added.map(\.sha256)))
        #expect(try await photos.referencedHashes().isEmpty)
    }

    /// The album's and the share page's read: every entry's photos at once, in each entry's order, this family's only.
    @Test(arguments: Engine.available) func thePhotosOfManyEntriesComeInOneReadInTheirOrder(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let photos = fixture.stores.photos
        let child = try await fixture.child()
        let first = try await fixture.entry("하나", at: "2026-05-05T18:00", children: [child.id])
        let second = try await fixture.entry("둘", at: "2026-05-06T18:00", children: [child.id])
        let bare = try await fixture.entry("사진 없음", at: "2026-05-07T18:00", children: [child.id])
        let one = try await photos.add([photo(fixture, 1), photo(fixture, 2)], family: fixture.family, entry: first.id)
        let two = try await photos.add([photo(fixture, 3)], family: fixture.family, entry: second.id)
        _ = try await photos.setPhotos([one[1].id, one[0].id], family: fixture.family, entry: first.id)
        let found = try await photos.photos(family: fixture.family, entries: [first.id, second.id, bare.id, EntryID()])
        #expect(found == [first.id: [one[1], one[0]], second.id: two])
        #expect(try await photos.photos(family: fixture.family, entries: []).isEmpty)
        #expect(try await photos.photos(family: try await fixture.otherFamily(), entries: [first.id, second.id]).isEmpty)
        // And the entries themselves, in the order asked, unknown and others' left out.
        let entries = fixture.stores.entries
        #expect(try await entries.entries(family: fixture.family, ids: [second.id, EntryID(), first.id]).map(\.id) == [second.id, first.id])
        #expect(try await entries.entries(family: FamilyID(), ids: [first.id]).isEmpty)
    }

    @Test(arguments: Engine.available) func oneFamilyNeverTouchesAnothersPhotos(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let photos = fixture.stores.photos
        let child = try await fixture.child()
        let entry = try await fixture.entry("우리", at: "2026-05-05T18:00", children: [child.id])
        let other = try await fixture.otherFamily()
        let theirs = try await photos.add([photo(fixture, 7, family: other)], family: other, entry: nil)
        // The same content in two families is two rows; the file is released only when both are gone.
        let ours = try await photos.add([photo(fixture, 7)], family: fixture.family, entry: entry.id)
        #expect(ours[0].id != theirs[0].id)
        await #expect(throws: StoreError.self) { try await photos.get(family: fixture.family, id: theirs[0].id) }
        await #expect(throws: StoreError.self) { try await photos.setPhotos([theirs[0].id], family: fixture.family, entry: entry.id) }
        await #expect(throws: StoreError.self) { try await photos.setProfilePhoto(theirs[0].id, family: fixture.family, child: child.id) }
        await #expect(throws: StoreError.self) { try await photos.add([photo(fixture, 8)], family: other, entry: entry.id) }
        await #expect(throws: StoreError.self) { try await photos.photos(family: other, entry: entry.id) }
        let trashed = try await photos.remove(ours[0].id, family: fixture.family, entry: entry.id, by: nil)
        await #expect(throws: StoreError.self) { try await fixture.stores.trash.purge(family: other, id: trashed.id) }
        #expect(try await fixture.stores.trash.purge(family: fixture.family, id: trashed.id).isEmpty)
        #expect(try await photos.referencedHashes() == [theirs[0].sha256])
    }

    @Test(arguments: Engine.available) func uploadsNeverAttachedAreDeletedAfterTheirAge(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let photos = fixture.stores.photos
        let child = try await fixture.child()
        let old = Date().addingTimeInterval(-2 * 86_400)
        let stored = try await photos.add([photo(fixture, 1, createdAt: old), photo(fixture, 2, createdAt: old), photo(fixture, 3, createdAt: Date())], family: fixture.family, entry: nil)
        _ = try await fixture.stores.photos.setProfilePhoto(stored[1].id, family: fixture.family, child: child.id)
        let released = try await photos.deleteUnattached(olderThan: 86_400)
        #expect(released.map(\.sha256) == [stored[0].sha256])
        #expect(try await photos.referencedHashes() == [stored[1].sha256, stored[2].sha256])
    }

    func batch(_ fixture: StoreFixture) throws -> (ImportBatch, ChildID) {
        var batch = ImportBatch()
        let now = Date()
        let child = Child(
            familyID: fixture.family, profile: try ChildProfile(name: "별이", birthDate: .solar(try SolarDate(iso: "2024-01-01"))), createdAt: now,
            modifiedAt: now)
        batch.children = [
            .init(
                sourceKey: "child-1", child: child,
                measurements: [try GrowthMeasurement(childID: child.id, kind: .weight, value: 3.2, unit: .kilograms, date: try SolarDate(iso: "2024-01-01"))])
        ]
        batch.photos = [photo(fixture, 11), photo(fixture, 12)]
        batch.entries = [
            .init(
                sourceKey: "entry-1",
                content: try EntryContent(title: "태어난 날", body: "", date: try LocalDateTime(iso: "2024-01-01T09:00"), childIDs: [child.id], tags: ["탄생"]),
                photos: [batch.photos[0].id, batch.photos[1].id]),
            .init(
                sourceKey: "entry-2", content: try EntryContent(title: "둘째 날", body: "", date: try LocalDateTime(iso: "2024-01-02T09:00"), childIDs: [child.id]),
                photos: [batch.photos[1].id]),
        ]
        batch.events = [
            .init(sourceKey: "event-1", details: try EventDetails(childID: child.id, kind: .hospital, title: "BCG", date: try SolarDate(iso: "2024-01-20")))
        ]
        batch.anniversaries = [.init(sourceKey: "anniversary-1", details: try AnniversaryDetails(name: "결혼기념일", calendar: .solar, month: 5, day: 1))]
        return (batch, child.id)
    }

    @Test(arguments: Engine.available) func anImportWritesEachRecordOnceAndADryRunNothing(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let imports = fixture.stores.imports
        let (batch, childID) = try batch(fixture)
        let dry = try await imports.importBatch(batch, family: fixture.family, source: "dayone:a", dryRun: true)
        let expected = ["children": 1, "measurements": 1, "photos": 2, "entries": 2, "events": 1, "anniversaries": 1]
        #expect(dry.added == expected && dry.duplicates.isEmpty && dry.childGone.isEmpty)
        #expect(try await fixture.stores.entries.list(family: fixture.family, after: nil, limit: 10).items.isEmpty)
        #expect(try await fixture.stores.photos.referencedHashes().isEmpty)

        let done = try await imports.importBatch(batch, family: fixture.family, source: "dayone:a", dryRun: false)
        #expect(done == dry)
        let entries = try await fixture.stores.entries.list(family: fixture.family, after: nil, limit: 10).items
        #expect(entries.map(\.content.title) == ["둘째 날", "태어난 날"])
        #expect(entries[1].photoIDs == batch.photos.map(\.id) && entries[0].photoIDs == [batch.photos[1].id])
        #expect(try await fixture.stores.growth.measurements(family: fixture.family, child: childID).count == 1)
        #expect(try await fixture.stores.events.list(family: fixture.family, after: nil, limit: 10).items.map(\.details.title) == ["BCG"])
        #expect(try await fixture.stores.anniversaries.list(family: fixture.family, after: nil, limit: 10).items.count == 1)

        // The same source again adds nothing; another source adds the records again but not the photo rows.
        let again = try await imports.importBatch(batch, family: fixture.family, source: "dayone:a", dryRun: false)
        #expect(again.added.isEmpty && again.duplicates == ["children": 1, "entries": 2, "events": 1, "anniversaries": 1])
        let elsewhere = try await imports.importBatch(try self.batch(fixture).0, family: fixture.family, source: "dayone:b", dryRun: false)
        #expect(elsewhere.duplicates.isEmpty && elsewhere.added["photos"] == nil && elsewhere.added["entries"] == 2)
    }

    @Test(arguments: Engine.available) func recordsOfAChildDeletedSinceAreSkippedAndAFailureWritesNothing(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let imports = fixture.stores.imports
        let (batch, childID) = try batch(fixture)
        _ = try await imports.importBatch(batch, family: fixture.family, source: "dayone:a", dryRun: false)
        _ = try await fixture.stores.children.delete(family: fixture.family, id: childID, by: nil)

        var more = batch
        more.entries.append(
            .init(
                sourceKey: "entry-3", content: try EntryContent(title: "셋째 날", body: "", date: try LocalDateTime(iso: "2024-01-03T09:00"), childIDs: [childID])))
        let outcome = try await imports.importBatch(more, family: fixture.family, source: "dayone:a", dryRun: false)
        let gone = ImportOutcome.Record(kind: .entry, title: "셋째 날", date: try SolarDate(iso: "2024-01-03"))
        #expect(outcome.added.isEmpty && outcome.childGone == [gone])

        // A record naming a photo the batch does not carry fails the whole batch.
        var broken = try self.batch(fixture).0
        broken.entries.append(.init(sourceKey: "entry-x", content: broken.entries[0].content, photos: [PhotoID()]))
        await #expect(throws: StoreError.self) { try await imports.importBatch(broken, family: fixture.family, source: "dayone:c", dryRun: false) }
        #expect(try await fixture.stores.children.list(family: fixture.family, after: nil, limit: 10).items.isEmpty)
        #expect(try await fixture.stores.anniversaries.list(family: fixture.family, after: nil, limit: 10).items.count == 1)
    }
}
