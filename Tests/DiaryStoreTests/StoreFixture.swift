import Diary
import Foundation
import KoreanCalendar
import Secrets

@testable import DiaryStore

/// A real database file in a fresh temporary folder, with one family, per test.
struct StoreFixture {
    let folder: URL
    let database: DiaryDatabase
    let family: FamilyID

    init() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-store-\(UUID().uuidString)")
        database = try DiaryDatabase(folder: folder)
        family = try await SQLiteAccountStore(database).createUser(username: "kim", passwordHash: "x", familyName: "김씨네").1.id
    }

    func otherFamily() async throws -> FamilyID {
        try await SQLiteAccountStore(database).createUser(username: "lee-\(UUID())", passwordHash: "x", familyName: "이씨네-\(UUID())").1.id
    }

    func child(_ name: String = "하늘", in family: FamilyID? = nil) async throws -> Child {
        try await SQLiteChildStore(database).create(
            family: family ?? self.family,
            profile: try ChildProfile(name: name, birthDate: .solar(try SolarDate(iso: "2025-03-01"))))
    }

    func entry(_ title: String, at date: String, children: [ChildID], tags: [String] = []) async throws -> Entry {
        try await SQLiteEntryStore(database).create(
            family: family,
            content: try EntryContent(title: title, body: "", date: try LocalDateTime(iso: date), childIDs: children, tags: tags))
    }
}
