import Diary
import Foundation
import Secrets

/// The folder a server keeps its data in (the SQLite file, the key, photos): the one `saessak` uses when told none,
/// relative to where it runs (`make run` uses it).
public enum DataFolder {
    public static let defaultName = "saessak-data"
    /// The file that holds the first-run setup link while it works (`saessak admin setup-link`).
    public static let setupLinkFile = "setup-link"
}

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

    /// Every backed-up table (`BackupCatalogue.tables`), read in one consistent snapshot, by `DumpRules`, a row at
    /// a time into `sink`.
    func dump(includeSensitive: Bool, family: FamilyID?, credentialsOf: UserID?, into sink: some DumpSink) async throws

    /// Writes a backup's tables (of this version's schema), read a batch at a time from `reader`, into this empty
    /// database in one transaction, and rebuilds the search index.
    func load(from reader: some DumpReader) async throws

    /// The SQLite migrations (`BackupCatalogue.migrations`) whose tables this database holds: a backup's schema.
    func schemaVersion() async throws -> [String]

    /// Whether the database holds no diary yet (a restore writes only into an empty one).
    func isEmpty() async throws -> Bool

    /// "ok" when the engine finds nothing wrong.
    func integrityCheck() async throws -> String

    /// One sealed value, to tell which key a half-done rotation left the data under.
    func sampleSealedValue() async throws -> Data?

    /// Re-encrypts every sealed value from `old` to `new` in one transaction; returns how many there were.
    func reseal(from old: FieldCipher, to new: FieldCipher) async throws -> Int

    /// Gives the planner statistics of the diary as it is now when those it has are missing or far off (the diary
    /// has since grown or shrunk several times over); true when it gathered them. `serve` asks at start and hourly.
    @discardableResult
    func refreshStatistics() async throws -> Bool

    /// Merges the full-text index's parts into one when entries written one at a time have left it in many (each
    /// part is one more lookup for every term of every search); true when it merged. `serve` asks soon after it
    /// starts and hourly (`SearchIndexUpkeep`).
    func tidySearchIndex() async throws -> Bool

    /// Lets go of connections (a command that ends).
    func close()
}

extension DiaryEngine {
    /// Every backed-up table, held in memory (tests compare them).
    public func dump(includeSensitive: Bool, family: FamilyID? = nil, credentialsOf: UserID? = nil) async throws -> [TableDump] {
        let tables = DumpTables()
        try await dump(includeSensitive: includeSensitive, family: family, credentialsOf: credentialsOf, into: tables)
        return tables.tables
    }

    public func load(_ tables: [TableDump]) async throws {
        try await load(from: DumpTables(tables))
    }
}

