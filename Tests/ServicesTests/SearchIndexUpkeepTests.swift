import Diary
import DiaryStore
import Foundation
import GRDB
import KoreanCalendar
import Logging
import Testing

@testable import Services

/// The search index's upkeep, as a server runs it: as it starts, an entry written before its place could be named
/// (abroad, before the world's countries were bundled) gets it, and a search for the country finds it.
@Suite struct SearchIndexUpkeepServiceTests {
    @Test func itsStartNamesThePlacesOfEntriesWrittenWithoutThem() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-upkeep-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try DiaryDatabase(folder: folder)
        let family = try await database.stores.accounts.createUser(username: "kim", passwordHash: "x", familyName: "김씨네").1.id
        let child = try await database.stores.children.create(
            family: family, profile: try ChildProfile(name: "하늘", birthDate: .solar(try SolarDate(iso: "2025-03-01"))))
        var content = try EntryContent(title: "여행", body: "", date: try LocalDateTime(iso: "2025-05-05T10:00"), childIDs: [child.id])
        content.place = try Place(name: nil, latitude: 48.8584, longitude: 2.2945)
        let entry = try await database.stores.entries.create(family: family, content: content, photos: [], author: nil)
        try await database.writer.write { db in
            try db.execute(sql: "UPDATE entries SET placeRegion = NULL WHERE id = ?", arguments: [entry.id.description])
            try db.execute(sql: "UPDATE searchDocuments SET place = '' WHERE entryId = ?", arguments: [entry.id.description])
        }
        func found() async throws -> Int {
            try await database.stores.search.search(family: family, try SearchQuery("프랑스"), after: nil, limit: 10).items.count
        }
        #expect(try await found() == 0)

        let upkeep = SearchIndexUpkeep(database: database, logger: Logger(label: "test"), first: .seconds(3600), every: .seconds(3600))
        let running = Task { try await upkeep.run() }
        defer { running.cancel() }
        let deadline = ContinuousClock.now + .seconds(60)
        while try await found() == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(try await found() == 1)
    }
}
