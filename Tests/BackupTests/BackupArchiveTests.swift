import Diary
import DiaryStore
import Foundation
import KoreanCalendar
import Persistence
import Photos
import Testing
import ZIPFoundation

@testable import Backup

/// The archive in-process: a round trip gives the same tables (sealed values opened with each folder's own key),
/// and an archive with a file the manifest does not list is refused before anything is written.
@Suite struct BackupArchiveTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-backup-\(UUID().uuidString)")

    func diary(_ name: String) async throws -> (URL, DiaryDatabase) {
        let folder = root.appendingPathComponent(name)
        let database = try DiaryDatabase(folder: folder)
        let family = try await database.stores.accounts.createUser(username: "kim", passwordHash: "x", familyName: "김씨네").1.id
        let child = try await database.stores.children.create(
            family: family,
            profile: try ChildProfile(
                name: "하늘", birthDate: .lunar(try LunarDate(year: 2025, month: 6, day: 4, isLeapMonth: true)),
                residentNumber: try ResidentNumber("240229-4123456")))
        _ = try await database.stores.entries.create(
            family: family,
            content: try EntryContent(title: "첫 걸음", body: "🎉", date: try LocalDateTime(iso: "2026-11-22T09:30"), childIDs: [child.id]))
        return (folder, database)
    }

    @Test func aRoundTripKeepsEveryTable() async throws {
        let (folder, database) = try await diary("source")
        let archive = root.appendingPathComponent("backup.zip")
        let manifest = try await BackupArchive.write(
            database, photos: try PhotoFolder(dataFolder: folder), to: archive, includeSensitive: true, app: "test")
        #expect(manifest.counts["entries"] == 1 && manifest.includesSensitive)
        let target = root.appendingPathComponent("target")
        try await BackupArchive.restore(archive, into: target)
        let restored = try DiaryDatabase(folder: target)
        #expect(try await restored.dump(includeSensitive: true) == (try await database.dump(includeSensitive: true)))
        // Another key, the same number.
        #expect(try Data(contentsOf: target.appendingPathComponent("secret.key")) != (try Data(contentsOf: folder.appendingPathComponent("secret.key"))))
    }

    @Test func aFileTheManifestDoesNotListIsRefused() async throws {
        let (folder, database) = try await diary("source")
        let archive = root.appendingPathComponent("backup.zip")
        try await BackupArchive.write(database, photos: try PhotoFolder(dataFolder: folder), to: archive, includeSensitive: false, app: "test")
        let zip = try Archive(url: archive, accessMode: .update)
        let surprise = Data("hi".utf8)
        try zip.addEntry(with: "surprise.txt", type: .file, uncompressedSize: Int64(surprise.count)) { position, size in
            surprise.subdata(in: Int(position)..<Int(position) + size)
        }
        let target = root.appendingPathComponent("target")
        await #expect(throws: BackupArchive.Failure.damaged("surprise.txt is not in the manifest")) {
            try await BackupArchive.restore(archive, into: target)
        }
        #expect(!FileManager.default.fileExists(atPath: target.appendingPathComponent("saessak.sqlite").path))
    }

    @Test func onlyATablesOwnColumnsAreWritten() async throws {
        let database = try DiaryDatabase(folder: root.appendingPathComponent("empty"))
        let sneaky = TableDump(name: "families", rows: [["id": .text("x"), "name) VALUES ('a'); --": .text("b")]])
        await #expect(throws: StoreError.self) { try await database.load([sneaky]) }
        #expect(try await database.dump(includeSensitive: false).allSatisfy { $0.rows.isEmpty })
    }
}
