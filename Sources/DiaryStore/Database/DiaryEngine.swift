import Diary
import Foundation
import GRDB
import Secrets

/// A diary database, whichever engine holds it: SQLite in the data folder (`DiaryDatabase`) or PostgreSQL
/// (`PostgresDatabase`). The composition roots open one and hand out its stores; backup, restore and the key
/// commands speak this.
public protocol DiaryEngine: Sendable {
    /// Every store, over this database.
    var stores: DiaryStores { get }
    var clock: Clock { get }
    /// The field-encryption key (the data folder's `secret.key`, or `SAESSAK_SECRET_KEY`).
    var cipher: FieldCipher { get }
    /// Which engine and where, without secrets ("SQLite saessak-data/saessak.sqlite").
    var location: String { get }

    /// Every backed-up table (`DiaryDatabase.backupTables`), read in one consistent snapshot, by `DumpRules`.
    func dump(includeSensitive: Bool, family: FamilyID?, credentialsOf: UserID?) async throws -> [TableDump]

    /// Writes a backup's tables (of this version's schema) into this empty database in one transaction, and rebuilds
    /// the search index.
    func load(_ tables: [TableDump]) async throws

    /// The SQLite migrations (`DiaryDatabase.migrations`) whose tables this database holds: a backup's schema.
    func schemaVersion() async throws -> [String]

    /// Whether the database holds no diary yet (a restore writes only into an empty one).
    func isEmpty() async throws -> Bool

    /// "ok" when the engine finds nothing wrong.
    func integrityCheck() async throws -> String

    /// One sealed value, to tell which key a half-done rotation left the data under.
    func sampleSealedValue() async throws -> Data?

    /// Re-encrypts every sealed value from `old` to `new` in one transaction; returns how many there were.
    func reseal(from old: FieldCipher, to new: FieldCipher) async throws -> Int

    /// Lets go of connections (a command that ends).
    func close()
}

extension DiaryEngine {
    public func dump(includeSensitive: Bool) async throws -> [TableDump] {
        try await dump(includeSensitive: includeSensitive, family: nil, credentialsOf: nil)
    }
}

extension DiaryDatabase: DiaryEngine {
    public var location: String { "SQLite \(writer.path)" }

    public func isEmpty() async throws -> Bool {
        try await writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM families") ?? 0 } == 0
    }

    public func close() {
        try? writer.close()
    }

    /// The columns of every backed-up table at this version's schema, with SQLite's declared types, by name as a
    /// backup spells them: what another engine's dump reads and its load expects. Read once, from a scratch database.
    package static let backupColumns: [String: [(name: String, type: String)]] = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-columns-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let database = try? DiaryDatabase(path: folder.path + ".sqlite", cipher: .random()) else { return [:] }
        defer {
            try? database.writer.close()
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: folder.path + ".sqlite" + suffix) }
        }
        return (try? database.writer.read { db in
            var columns: [String: [(name: String, type: String)]] = [:]
            for table in backupTables {
                columns[table] = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { ($0["name"], ($0["type"] as String).uppercased()) }
            }
            return columns
        }) ?? [:]
    }()
}
