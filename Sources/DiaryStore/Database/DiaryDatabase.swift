import Diary
import Foundation
import GRDB
import Persistence
#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif
import CSQLiteGuard
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
    /// Readers the long reads (`reading`) may hold at once: all but `readersForShortReads`.
    let longReads: ReadPermits

    /// Readers kept from the long reads for the short ones (`readingHere`), which wait for a reader on their own
    /// thread: two, the most a two-core server's task pool runs at once; more short reads wait only for a short read
    /// that is running, never for a long one.
    static let readersForShortReads = 2

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

    /// Every statement the connection runs counts towards the request's (`StatementCount`, bound by `read` and
    /// `write`), but not what SQLite or GRDB run for it: a trigger's statements (reported as `-- TRIGGER …`) are the
    /// one that fired it, and GRDB's own look at the schema in a read (`PRAGMA schema_version`, `SELECT * FROM
    /// sqlite_master LIMIT 1`) comes or not with the state of the reader the read finds, which made a search page's
    /// count differ by one from run to run. The stores run no `PRAGMA` and never read `sqlite_master`. SQLite's own hook
    /// and the text's first bytes: GRDB's `trace` made a trimmed `String` of each statement's text, 4 % of a busy
    /// timeline's time (issue 35).
    private static func countStatements(_ db: Database) {
        sqlite3_trace_v2(db.sqliteConnection, UInt32(SQLITE_TRACE_STMT), { _, _, _, text in
            guard let counting = StatementCount.current, let text = text?.assumingMemoryBound(to: CChar.self) else { return 0 }
            let comment = text[0] == 0x2D && text[1] == 0x2D  // "--"
            let grdb = strncmp(text, "PRAGMA ", 7) == 0 || strncmp(text, "SELECT * FROM sqlite_master", 27) == 0
            if !comment && !grdb { counting.add() }
            return 0
        }, nil)
    }

    /// For the server, before its first database: SQLite stops counting the memory it holds. The count takes one
    /// process-wide mutex at every allocation and free, which the readers of pages under load queued on — 6–7 % of
    /// the server's CPU a page under four clients (docs/performance.md). Nothing in the
    /// server reads the count; the one heap limit, which needs it, is set in the child that reads an uploaded store
    /// (`UntrustedStore`). Once SQLite is in use it refuses the change: returns whether it took.
    @discardableResult
    public static func forgoMemoryStatistics() -> Bool {
        saessak_sqlite_memory_statistics(0) == SQLITE_OK
    }

    public init(path: String, cipher: FieldCipher, clock: Clock = .live, schema: String? = nil) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try SearchIndex.registerTokenizer(db)
            Self.countStatements(db)
        }
        writer = try DatabasePool(path: path, configuration: configuration)
        longReads = ReadPermits(configuration.maximumReaderCount - Self.readersForShortReads)
        self.cipher = cipher
        self.clock = clock
        if let schema {
            try DiarySchema.migrator.migrate(writer, upTo: schema)
        } else {
            try DiarySchema.migrator.migrate(writer)
            try writer.write { db in _ = try Self.refreshStatistics(db) }
        }
    }

    /// Below this many entries any plan is quick, and statistics are not gathered.
    static let entriesWorthStatistics = 500

    /// `ANALYZE` when the planner has no statistics of `entries` or they count less than half or more than twice
    /// the entries there are now (0.3 s for 100,000 entries). Without them SQLite takes `familyId = ?` for a rare
    /// value, where in a data folder one family's rows are nearly the whole table, and plans a page that should read
    /// 30 rows as a walk through the family (issue 35: the home page's "on this day" and the timeline's news marks).
    /// Statistics taken once stay right as the diary grows (the family remains the whole table); a restored or
    /// imported diary, or one that grew from a few entries, gets them at the next start or within the hour.
    static func refreshStatistics(_ db: Database) throws -> Bool {
        let entries = try Int.fetchOne(db, sql: "SELECT count(*) FROM entries") ?? 0
        guard entries >= entriesWorthStatistics else { return false }
        if try db.tableExists("sqlite_stat1"),
            let stat = try String.fetchOne(db, sql: "SELECT stat FROM sqlite_stat1 WHERE tbl = 'entries' AND idx = 'entries_timeline'"),
            let counted = stat.split(separator: " ").first.flatMap({ Int($0) }), entries <= counted * 2, counted <= entries * 2
        {
            return false
        }
        try db.execute(sql: "ANALYZE")
        return true
    }

    /// Every migration this Saessak knows, oldest first (`BackupCatalogue.migrations`, checked by StoreTests).
    public static var migrations: [String] { DiarySchema.migrator.migrations }

    /// Runs the migrations a database opened with `schema:` still lacks.
    public func migrateToLatest() throws { try DiarySchema.migrator.migrate(writer) }

    /// One sealed value, to tell which key a half-done rotation left the data under.
    public func sampleSealedValue() async throws -> Data? {
        try await reading { db in
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

    /// A read that may run long (search, the dump) on a reader connection's own queue, its statements counted towards
    /// the task's `StatementCount`: the task waits without holding a thread, and the reader is given back on its queue.
    /// (GRDB's `async` read gives the reader back only once the task has resumed on the task pool: were every pool
    /// thread then waiting in `readingHere` for a reader, none would come back. `ReadTests` hold it.)
    /// They hold at most `longReads` readers at once, waiting for a permit without a thread.
    func reading<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let counted = StatementCount.carrying(body)
        return try await longReads.holding {
            try await withCheckedThrowingContinuation { continuation in
                writer.asyncRead { database in continuation.resume(with: Result { try counted(try database.get()) }) }
            }
        }
    }

    /// A short read (a page's: the statement budgets keep them to a few dozen statements) on the calling thread: GRDB
    /// runs a free reader's queue synchronously where it is called, where its asynchronous read hands the closure to
    /// that queue's thread and the result back, two thread switches a read that cost a third of a page under load
    /// (docs/performance.md). It waits only when the readers the long reads leave (`readersForShortReads`) are busy with
    /// other short reads, each running on its own thread: never for a long read, however many there are. Its statements, the savepoint it reads in too, count
    /// towards the task's `StatementCount` as they run on the task's own thread.
    func readingHere<T>(_ body: (Database) throws -> T) throws -> T {
        try writer.read(body)
    }

    /// A write on GRDB's own terms, its statements counted towards the task's `StatementCount`.
    func writing<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writer.write(StatementCount.carrying(body))
    }

    /// `PRAGMA integrity_check`; "ok" when the file is sound.
    public func integrityCheck() async throws -> String {
        try await reading { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "no answer" }
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
            vaccinations: SQLVaccinationStore(self), loginFailures: SQLLoginFailureStore(self), reactions: SQLReactionStore(self),
            news: SQLNewsStore(self), mail: SQLMailStore(self), weather: SQLWeatherStore(self), trash: SQLTrashStore(self),
            activity: SQLActivityStore(self), snapshots: SQLSnapshotStore(self), books: SQLBookJobStore(self),
            passkeys: SQLPasskeyStore(self), secondSteps: SQLSecondStepStore(self))
    }
}
