import Diary
import Foundation
import GRDB
import Persistence
import Secrets

/// The family diary's SQLite database: one file in WAL mode with foreign keys enforced, migrated on open.
///
/// Every write is one transaction; `synchronous = FULL` makes a commit durable before the caller hears of it,
/// so an acknowledged write survives a crash or a power cut.
public final class DiaryDatabase: Sendable {
    /// The connection pool: one writer, concurrent readers (WAL).
    public let writer: DatabasePool
    public let cipher: FieldCipher
    public let clock: Clock

    public static let fileName = "saessak.sqlite"

    /// Opens (creating if needed) the database in `folder`, with the folder's field-encryption key. `schema`
    /// stops the migrations at that one (a restore writes an older backup into its own schema, then migrates on).
    public convenience init(folder: URL, clock: Clock = .live, schema: String? = nil) throws {
        // Children's data: only the account that runs Saessak may read the folder it creates.
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let cipher = try FieldCipher.forDataFolder(folder)
        try self.init(path: folder.appendingPathComponent(Self.fileName).path, cipher: cipher, clock: clock, schema: schema)
    }

    public init(path: String, cipher: FieldCipher, clock: Clock = .live, schema: String? = nil) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try SearchIndex.registerTokenizer(db)
        }
        writer = try DatabasePool(path: path, configuration: configuration)
        self.cipher = cipher
        self.clock = clock
        if let schema {
            try DiarySchema.migrator.migrate(writer, upTo: schema)
        } else {
            try DiarySchema.migrator.migrate(writer)
        }
    }

    /// Every migration this Saessak knows, oldest first (`BackupCatalogue.migrations`, checked by StoreTests).
    public static var migrations: [String] { DiarySchema.migrator.migrations }

    /// Runs the migrations a database opened with `schema:` still lacks.
    public func migrateToLatest() throws { try DiarySchema.migrator.migrate(writer) }

    /// One sealed value, to tell which key a half-done rotation left the data under.
    public func sampleSealedValue() async throws -> Data? {
        try await writer.read { db in
            for (table, column) in BackupCatalogue.sealedColumns {
                if let value = try Data.fetchOne(db, sql: "SELECT \(column) FROM \(table) WHERE \(column) IS NOT NULL LIMIT 1") {
                    return value
                }
            }
            return nil
        }
    }

    /// Re-encrypts every sealed value from `old` to `new` in one transaction; returns how many there were.
    public func reseal(from old: FieldCipher, to new: FieldCipher) async throws -> Int {
        try await writer.write { db in
            var count = 0
            for (table, column) in BackupCatalogue.sealedColumns {
                let rows = try Row.fetchAll(db, sql: "SELECT rowid, \(column) AS sealed FROM \(table) WHERE \(column) IS NOT NULL")
                for row in rows {
                    let plain = try old.open(row["sealed"])
                    try db.execute(
                        sql: "UPDATE \(table) SET \(column) = ? WHERE rowid = ?", arguments: [try new.seal(plain), row["rowid"] as Int64])
                    count += 1
                }
            }
            return count
        }
    }

    /// `PRAGMA integrity_check`; "ok" when the file is sound.
    public func integrityCheck() async throws -> String {
        try await writer.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "no answer" }
    }
}

extension DiaryDatabase {
    /// Every store, over this database.
    public var stores: DiaryStores {
        DiaryStores(
            accounts: SQLAccountStore(self), sessions: SQLSessionStore(self), sharing: SQLSharingStore(self),
            children: SQLChildStore(self), entries: SQLEntryStore(self), memos: SQLMemoStore(self),
            anniversaries: SQLAnniversaryStore(self), events: SQLEventStore(self), photos: SQLPhotoStore(self),
            search: SQLiteSearchStore(self), imports: SQLImportStore(self), growth: SQLGrowthStore(self),
            vaccinations: SQLVaccinationStore(self), loginFailures: SQLLoginFailureStore(self), reactions: SQLReactionStore(self), news: SQLNewsStore(self), mail: SQLMailStore(self), weather: SQLWeatherStore(self))
    }
}
