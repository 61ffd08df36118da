import Diary
import DiaryStore
import Foundation
import KoreanCalendar
import Photos
import Testing

@testable import Services

/// A real data folder: SQLite database, photo folder, one family.
struct ServiceFixture {
    let folder: URL
    let database: DiaryDatabase
    let family: FamilyID
    let photos: PhotoService

    init() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-services-\(UUID().uuidString)")
        database = try DiaryDatabase(folder: folder)
        family = try await database.stores.accounts.createUser(username: "kim", passwordHash: "x", familyName: "김씨네").1.id
        photos = try PhotoService(dataFolder: folder, database: database, logger: .init(label: "test"))
    }

    /// A JPEG made by libvips' command-line tool, staged as an upload.
    func staged(width: Int = 64) throws -> UploadWriter {
        let file = folder.appendingPathComponent("\(UUID().uuidString).jpg")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["vips", "black", file.path + "[Q=90]", "\(width)", "48"]
        try process.run()
        process.waitUntilExit()
        return try staged(try Data(contentsOf: file))
    }

    func staged(_ bytes: Data) throws -> UploadWriter {
        let writer = try photos.storage.stage(limits: .standard)
        try bytes.withUnsafeBytes { try writer.write(untyped: $0) }
        return writer
    }

    var storedOriginals: Int { (try? FileManager.default.subpathsOfDirectory(atPath: folder.appendingPathComponent("photos/originals").path))?
        .filter { $0.hasSuffix(".jpg") }.count ?? 0 }
}

@Suite struct PhotoServiceTests {
    @Test func aRequestsPhotosAreStoredRecordedAndServed() async throws {
        let fixture = try await ServiceFixture()
        let stored = try await fixture.photos.ingest([try fixture.staged(), try fixture.staged(width: 80)], family: fixture.family, entry: nil, now: Date())
        #expect(stored.count == 2 && fixture.storedOriginals == 2)
        let original = try #require(try await fixture.photos.original(stored[0]))
        #expect(original.byteCount == stored[0].byteCount)
        let square = try await fixture.photos.thumbnail(stored[0], size: .square)  // made when first asked for
        #expect(square.byteCount > 0)
    }

    @Test func oneBadFileRefusesTheWholeRequestAndLeavesNothing() async throws {
        let fixture = try await ServiceFixture()
        await #expect(throws: PhotoError.self) {
            try await fixture.photos.ingest(
                [try fixture.staged(), try fixture.staged(Data("not a photo".utf8))], family: fixture.family, entry: nil, now: Date())
        }
        #expect(fixture.storedOriginals == 0)
        #expect(try await fixture.database.stores.photos.referencedHashes().isEmpty)
        let incoming = try FileManager.default.contentsOfDirectory(atPath: fixture.folder.appendingPathComponent("photos/incoming").path)
        #expect(incoming.isEmpty)
    }

    @Test func startUpSweepsFilesNoRowRefersTo() async throws {
        let fixture = try await ServiceFixture()
        let kept = try await fixture.photos.ingest([try fixture.staged()], family: fixture.family, entry: nil, now: Date())
        // A file placed by a request whose rows never came (a crash between rename and commit).
        try await placeWithoutRows(fixture)
        #expect(fixture.storedOriginals == 2)
        // While another writer holds the lock, the sweep leaves files alone.
        try await whileAnotherWriterHoldsTheLock(fixture) { () async throws -> Void in
            let swept = try await fixture.photos.tidy()
            #expect(!swept)
            #expect(fixture.storedOriginals == 2)
        }
        #expect(try await fixture.photos.tidy())
        #expect(fixture.storedOriginals == 1)
        #expect(try await fixture.database.stores.photos.referencedHashes() == [kept[0].sha256])
    }
}

extension PhotoServiceTests {
    /// The sweep by age (what shared object storage relies on): a file no row refers to stays while it is younger
    /// than the age asked for — another server may be about to commit its row — and goes once it is older.
    @Test func theSweepByAgeWaitsForTheGrace() async throws {
        let fixture = try await ServiceFixture()
        try await placeWithoutRows(fixture)
        let now = Date()
        #expect(try await fixture.photos.sweep(olderThan: PhotoService.sharedGrace, now: now) == PhotoSweep())
        #expect(fixture.storedOriginals == 1)
        let later = now.addingTimeInterval(PhotoService.sharedGrace + 60)
        let swept = try await fixture.photos.sweep(olderThan: PhotoService.sharedGrace, now: later)
        #expect(swept.originals == 1 && fixture.storedOriginals == 0)
    }

    /// Thumbnails whose original and rows are both gone (a crash between deleting one and the other) are swept.
    @Test func strayThumbnailsAreSwept() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.photos.storage.putThumbnail(Data("x".utf8), sha256: String(repeating: "cd", count: 32), size: .large)
        #expect(try await fixture.photos.storage.listThumbnails().count == 1)
        #expect(try await fixture.photos.sweep(olderThan: 0).thumbnails == 1)
        #expect(try await fixture.photos.storage.listThumbnails().isEmpty)
    }

    /// A clip's web rendition whose clip is gone (its rows deleted while ffmpeg worked) is swept; a kept clip's stays.
    @Test func strayRenditionsAreSwept() async throws {
        let fixture = try await ServiceFixture()
        let kept = try await fixture.photos.ingest([try fixture.staged()], family: fixture.family, entry: nil, now: Date())
        for sha in [kept[0].sha256, String(repeating: "ef", count: 32)] {
            let scratch = fixture.photos.storage.scratchFile(extension: "mp4")
            try Data("rendition".utf8).write(to: scratch)
            try await fixture.photos.storage.putRendition(scratch, sha256: sha)
            #expect(!FileManager.default.fileExists(atPath: scratch.path))  // moved, not copied
        }
        let swept = try await fixture.photos.sweep(olderThan: 0)
        #expect(swept.renditions == 1 && swept.originals == 0)
        #expect(try await fixture.photos.storage.listRenditions() == [StoredRendition(sha256: kept[0].sha256)])
        // Deleting a clip's files takes its rendition with them.
        await fixture.photos.storage.delete(sha256: kept[0].sha256, format: .jpeg)
        #expect(try await fixture.photos.storage.listRenditions().isEmpty)
    }
}

/// Places one photo file and drops its intake (and the intake's writer lock) without writing a row.
private func placeWithoutRows(_ fixture: ServiceFixture) async throws {
    let intake = try PhotoIntake(storage: fixture.photos.storage, family: fixture.family, now: Date())
    _ = try intake.check(try fixture.staged(width: 96))
    try await intake.place()
}

private func whileAnotherWriterHoldsTheLock(_ fixture: ServiceFixture, _ body: () async throws -> Void) async throws {
    let other = try fixture.photos.storage.writerLock()
    try await body()
    withExtendedLifetime(other) {}
}

@Suite struct ShapeTests {
    @Test func searchSnippetsEscapeTextAndMarkMatches() {
        let hit = SearchHit(kind: .entry, id: "1", title: "t", snippet: Snippet([.init("<b>", isMatch: false), .init("걸음", isMatch: true)]))
        #expect(SearchHitResource(hit).snippet == "&lt;b&gt;<mark>걸음</mark>")
    }

    /// A card's line: each known child in the order tagged, with an age from the birth on; an unknown id left out.
    @Test func theAgesLineNamesEachChildWithTheirAge() throws {
        func child(_ name: String, born: String) throws -> Child {
            Child(
                familyID: FamilyID(), profile: try ChildProfile(name: name, birthDate: .solar(try SolarDate(iso: born)), sex: .female),
                createdAt: Date(), modifiedAt: Date())
        }
        let (sky, sea) = (try child("하늘", born: "2025-01-01"), try child("바다", born: "2026-12-01"))
        let ages = ChildAges([sky, sea])
        let day = try SolarDate(iso: "2025-04-10")
        let skyAge = try #require(ages.label(sky.id, on: day, language: .korean))
        #expect(ages.line([sky.id, ChildID(), sea.id], on: day, language: .korean) == "하늘 \(skyAge) · 바다")
        #expect(ages.line([sea.id, sky.id], on: day, language: .korean) == "바다 · 하늘 \(skyAge)")
        #expect(ages.line([ChildID()], on: day, language: .english) == nil && ages.line([], on: day, language: .korean) == nil)
    }

    @Test func measurementsAreAssessedAgainstTheWHOStandard() throws {
        let child = Child(
            familyID: FamilyID(),
            profile: try ChildProfile(name: "하늘", birthDate: .solar(try SolarDate(iso: "2025-01-01")), sex: .female),
            createdAt: Date(), modifiedAt: Date())
        let before = try GrowthMeasurement(childID: child.id, kind: .weight, value: 3.2, unit: .kilograms, date: try SolarDate(iso: "2025-01-01"))
        let listed = MeasurementResource.list([before], child: child)
        #expect(listed[0].ageInDays == 0)
        let percentile = try #require(listed[0].percentile)
        #expect(percentile > 40 && percentile < 60)  // WHO girls' median at birth is 3.23 kg
    }
}
