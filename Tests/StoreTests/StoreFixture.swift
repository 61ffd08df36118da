import Diary
import DiaryStore
import Foundation
import GRDB
import KoreanCalendar
import Persistence
import PostgresStore
import Secrets
import Testing

/// The engines a store suite runs on: SQLite always, PostgreSQL when `SAESSAK_TEST_POSTGRES_URL` names a cluster
/// (`make test` starts one with scripts/postgres-cluster.sh and sets it).
enum Engine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    static let postgresURL = ProcessInfo.processInfo.environment["SAESSAK_TEST_POSTGRES_URL"]

    static var available: [Engine] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    var testDescription: String { rawValue }
}

/// A fresh database with one family, per test: a real SQLite file in a temporary folder, or a schema of its own in
/// the test cluster's PostgreSQL database.
final class StoreFixture: Sendable {
    let engine: Engine
    let stores: DiaryStores
    let family: FamilyID
    let sqlite: DiaryDatabase?
    let postgres: PostgresDatabase?
    /// The SQLite data folder.
    let folder: URL?
    /// Where this fixture's files are (the SQLite folder, or PostgreSQL's key): deleted with the fixture.
    private let scratch: URL

    init(_ engine: Engine, clock: Clock = .live) async throws {
        self.engine = engine
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-store-\(UUID().uuidString)")
        scratch = folder
        switch engine {
        case .sqlite:
            let database = try DiaryDatabase(folder: folder, clock: clock)
            sqlite = database
            postgres = nil
            self.folder = folder
            stores = database.stores
        case .postgres:
            let url = try #require(Engine.postgresURL)
            let schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            var settings = try PostgresSettings(url: url, environment: [:])
            settings.schema = schema
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let database = try await PostgresDatabase.open(settings, cipher: try FieldCipher.forDataFolder(folder), clock: clock)
            sqlite = nil
            postgres = database
            self.folder = nil
            stores = database.stores
        }
        family = try await stores.accounts.createUser(username: "kim", passwordHash: "x", familyName: "김씨네").1.id
    }

    deinit {
        postgres?.close()
        sqlite?.close()
        try? FileManager.default.removeItem(at: scratch)
    }

    func otherFamily() async throws -> FamilyID {
        try await stores.accounts.createUser(username: "lee-\(UUID())", passwordHash: "x", familyName: "이씨네-\(UUID())").1.id
    }

    /// The engine under the stores, for writing many rows in one transaction.
    var database: any StoreDatabase {
        if let sqlite { return sqlite }
        return postgres!
    }

    /// Grandma: an account of her own family, who joins this one as a viewer (new to it).
    func grandmaJoins() async throws -> UserID {
        let grandma = try await stores.accounts.createUser(username: "grandma", passwordHash: "x", familyName: "할머니댁").0.id
        #expect(try await !stores.accounts.addMember(username: "grandma", familyName: "김씨네", role: .viewer))
        return grandma
    }

    func child(_ name: String = "하늘", in family: FamilyID? = nil) async throws -> Child {
        try await stores.children.create(
            family: family ?? self.family, profile: try ChildProfile(name: name, birthDate: .solar(try SolarDate(iso: "2025-03-01"))))
    }

    func entry(_ title: String, at date: String, children: [ChildID], tags: [String] = []) async throws -> Entry {
        try await stores.entries.create(
            family: family,
            content: try EntryContent(title: title, body: "", date: try LocalDateTime(iso: date), childIDs: children, tags: tags))
    }

    // Raw SQL, for what the interfaces do not show (how a row is stored, what the schema itself refuses). The SQL is
    // the same on both engines.

    func count(_ sql: String) async throws -> Int {
        switch engine {
        case .sqlite: try await sqlite!.writer.read { db in try Int.fetchOne(db, sql: sql) ?? -1 }
        case .postgres: try await postgres!.readAsync { db in try await db.int(sql) ?? -1 }
        }
    }

    func data(_ sql: String) async throws -> Data? {
        switch engine {
        case .sqlite: try await sqlite!.writer.read { db in try Data.fetchOne(db, sql: sql) }
        case .postgres: try await postgres!.readAsync { db in try await db.row(sql)?.optionalData(at: 0) }
        }
    }

    func execute(_ sql: String, _ arguments: [String]) async throws {
        switch engine {
        case .sqlite: try await sqlite!.writer.write { db in try db.execute(sql: sql, arguments: StatementArguments(arguments)) }
        case .postgres: try await postgres!.writeAsync { db in try await db.execute(sql, arguments) }
        }
    }

    /// SQLite's `PRAGMA integrity_check` ("ok"); PostgreSQL checks its constraints on every statement.
    func integrityCheck() async throws -> String {
        try await sqlite?.integrityCheck() ?? "ok"
    }
}
