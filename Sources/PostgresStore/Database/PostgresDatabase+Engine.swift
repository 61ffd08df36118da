import Diary
import Foundation
import Persistence
import NIOCore
import PostgresNIO
import Secrets

extension PostgresSchema {
    /// The SQLite migration whose tables the latest PostgreSQL migration holds, column for column: a backup from here
    /// carries SQLite's migration names up to this one, and restores into either engine. A SQLite migration that
    /// changes a backed-up table needs its PostgreSQL twin, and this moves on with it (StoreTests check the columns).
    static let dataSchema = "v24 sign-in methods"
}

extension PostgresDatabase: DiaryEngine {
    public var location: String { "PostgreSQL \(settingsDescription)" }

    public func schemaVersion() async throws -> [String] {
        let all = BackupCatalogue.migrations
        guard let last = all.firstIndex(of: PostgresSchema.dataSchema) else {
            throw StoreError.unreadable("this Saessak's SQLite schema has no migration '\(PostgresSchema.dataSchema)'")
        }
        return Array(all.prefix(through: last))
    }

    /// PostgreSQL's autovacuum keeps the statistics (and a restore gathers them at once: `load`).
    public func refreshStatistics() async throws -> Bool { false }

    /// The token table's B-tree indexes stay one structure as they are written: nothing to merge.
    public func tidySearchIndex() async throws -> Bool { false }

    public func isEmpty() async throws -> Bool {
        try await readAsync { db in try await db.int("SELECT count(*) FROM families") ?? 0 } == 0
    }

    /// PostgreSQL checks every constraint on every statement; this checks that the database answers and that its
    /// schema is the one this Saessak writes.
    public func integrityCheck() async throws -> String {
        let applied = try await appliedMigrations()
        let known = PostgresSchema.migrations.map(\.name)
        return applied == known ? "ok" : "the schema is at \(applied.last ?? "nothing"), this Saessak at \(known.last ?? "?")"
    }

    public func sampleSealedValue() async throws -> Data? {
        try await readAsync { db in
            for (table, column) in BackupCatalogue.sealedColumns {
                if let value = try await db.row("SELECT \(column) FROM \(table) WHERE \(column) IS NOT NULL LIMIT 1")?.optionalData(at: 0) {
                    return value
                }
            }
            return nil
        }
    }

    public func reseal(from old: FieldCipher, to new: FieldCipher) async throws -> Int {
        try await writeAsync { db in
            var count = 0
            for (table, column) in BackupCatalogue.sealedColumns {
                for row in try await db.rows("SELECT id, \(column) AS sealed FROM \(table) WHERE \(column) IS NOT NULL") {
                    guard let sealed = try row.optionalData("sealed") else { continue }
                    let plain = try old.open(sealed)
                    try await db.execute("UPDATE \(table) SET \(column) = ? WHERE id = ?", [try new.seal(plain), try row.string("id")])
                    count += 1
                }
            }
            return count
        }
    }

    // MARK: Backup

    public func dump(includeSensitive: Bool, family: FamilyID?, credentialsOf: UserID?, into sink: some DumpSink) async throws {
        let cipher = cipher
        try await readAsync { db in
            var members: Set<String>?
            if let family {
                members = Set(try await db.strings("SELECT userId FROM memberships WHERE familyId = ?", [family.sql]))
            }
            let rules = DumpRules(includeSensitive: includeSensitive, members: members, credentialsOf: credentialsOf, cipher: cipher)
            for table in BackupCatalogue.tables {
                guard let columns = BackupCatalogue.columns[table], !columns.isEmpty else {
                    throw StoreError.unreadable("no columns known for \(table)")
                }
                try sink.begin(table)
                let (filter, arguments) = try BackupCatalogue.scope(table: table, family: family).rendered { _ in "?" }
                let order = columns.prefix(4).filter { $0 != "digest" }.joined(separator: ", ")
                try await db.forEachRow(
                    "SELECT \(columns.joined(separator: ", ")) FROM \(table) \(filter) ORDER BY \(order)", try arguments.map(Self.argument)
                ) { row in
                    var values: [String: DumpValue] = [:]
                    for (name, cell) in zip(columns, row.columns) { values[name] = try Self.dumpValue(cell) }
                    try sink.write(try rules.dumped(values, table: table), of: table)
                }
            }
        }
    }

    /// A bound value for the statements not yet written once over `SQLSession`.
    static func argument(_ value: SQLValue) throws -> SQLArgument {
        switch value {
        case .null: nil
        case .integer(let number): Int(number)
        case .real(let number): number
        case .text(let text): text
        case .blob(let data): data
        case .bool(let flag): flag
        }
    }

    /// A cell as SQLite would give it: booleans as 0 and 1, integers, reals, bytes, text.
    static func dumpValue(_ cell: PostgresCell) throws -> DumpValue { DumpValue(try PostgresSession.value(cell)) }

    public func load(from reader: some DumpReader) async throws {
        let cipher = cipher
        // One attempt (a reader is read once), in a plain transaction: the database is new and nobody else writes.
        try await transaction("BEGIN") { db in
            guard try await db.int("SELECT count(*) FROM families") ?? 0 == 0 else {
                throw StoreError.conflict(field: "data", message: "the database already holds a diary")
            }
            // A child's profile photo is a photo of the family the child belongs to: no table order satisfies every
            // key row by row, so the keys are checked at the commit.
            try await db.execute("SET CONSTRAINTS ALL DEFERRED")
            let keysAndIndexes = try await Self.dropKeysAndIndexes(db, of: BackupCatalogue.tables)
            for table in BackupCatalogue.tables {
                guard let known = BackupCatalogue.columns[table] else {
                    throw StoreError.conflict(field: "data", message: "'\(table)' is not a table a backup holds")
                }
                let types = try await Self.columnTypes(db, table: table)
                let names = Set(known)
                // The next batch is read (inflated, parsed) on another thread while this one is written.
                var reading = Task.detached { try reader.rows(of: table, limit: 1_000) }
                while true {
                    let rows = try await reading.value
                    if rows.isEmpty { break }
                    reading = Task.detached { try reader.rows(of: table, limit: 1_000) }
                    // Rows with the same columns go in one `COPY`.
                    var columns: [String] = []
                    var lines = ByteBuffer()
                    for row in rows {
                        let row = try DumpRules.toLoad(row, table: table, cipher: cipher)
                        let keys = row.keys.sorted()
                        if let unknown = keys.first(where: { !names.contains($0) }) {
                            throw StoreError.conflict(field: "data", message: "\(table) has no column '\(unknown)'")
                        }
                        if keys != columns {
                            if lines.readableBytes > 0 { try await db.copy(into: table, columns: columns, lines) }
                            lines.clear()
                            columns = keys
                        }
                        for (index, column) in keys.enumerated() {
                            let value = try Self.argument(row[column] ?? .null, type: types[column.lowercased()] ?? "text", at: "\(table).\(column)")
                            lines.writeString(index == 0 ? "" : "\t")
                            lines.writeCopyValue(value)
                        }
                        lines.writeString("\n")
                    }
                    if lines.readableBytes > 0 { try await db.copy(into: table, columns: columns, lines) }
                }
            }
            for statement in keysAndIndexes { try await db.execute(statement) }
            try await PostgresSearchIndex.rebuild(db)
        }
        // The planner knows nothing of the rows just written until autovacuum gets round to them: without statistics
        // a timeline page of the restored diary took 112 ms instead of 8 (make bench). Nor are the rows marked
        // visible to all, so every index-only scan (a search's windows) read the table too, until autovacuum came
        // and, while it ran, shared the cores: `공원 산책` just after a restore took 21.6–23.4 ms (mean), 15.5–16.2
        // with the vacuum here, which costs about 2 s of the restore's minute.
        try await vacuumAndAnalyze()
    }

    /// Drops the foreign keys and the indexes that are not unique of `tables`, and returns the statements that make
    /// them again (indexes first), as `pg_restore` loads data before it makes its indexes and keys. Checked row by
    /// row while they were copied in, the keys and the indexes were three quarters of loading the rows of a
    /// 100,000-entry backup (a foreign key is a lookup for each row; an index made once from a sort is a fraction of
    /// as many insertions). Primary keys and unique constraints stay: keys refer to them, and they say a backup holds
    /// a row twice at the row.
    static func dropKeysAndIndexes(_ db: PostgresTransaction, of tables: [String]) async throws -> [String] {
        let names = tables.map { $0.lowercased() }
        let keys = try await db.rows(
            """
            SELECT format('ALTER TABLE %I DROP CONSTRAINT %I', t.relname, c.conname) AS dropping,
                format('ALTER TABLE %I ADD CONSTRAINT %I %s', t.relname, c.conname, pg_get_constraintdef(c.oid)) AS making
            FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
            WHERE c.contype = 'f' AND t.relnamespace = current_schema()::regnamespace AND t.relname = ANY(?)
            ORDER BY t.relname, c.conname
            """, [names])
        let indexes = try await db.rows(
            """
            SELECT format('DROP INDEX %I', i.relname) AS dropping, pg_get_indexdef(i.oid) AS making
            FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
            WHERE t.relnamespace = current_schema()::regnamespace AND t.relname = ANY(?) AND NOT x.indisunique
                AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid AND c.conrelid = x.indrelid)
            ORDER BY t.relname, i.relname
            """, [names])
        for row in keys + indexes { try await db.execute(try row.string("dropping")) }
        return try (indexes + keys).map { try $0.string("making") }
    }

    /// What autovacuum would do later, now, for every table (outside a transaction): the planner's statistics
    /// gathered, and the pages of rows just written marked visible to every transaction (the visibility map), which
    /// index-only scans need to leave the table unread. About 2 s after restoring the 100,000-entry diary.
    func vacuumAndAnalyze() async throws {
        let logger = logger
        try await client.withConnection { connection in
            _ = try await connection.query("VACUUM (ANALYZE)", logger: logger)
        }
    }

    private static func columnTypes(_ db: PostgresTransaction, table: String) async throws -> [String: String] {
        var types: [String: String] = [:]
        for row in try await db.rows(
            "SELECT column_name::text AS name, data_type::text AS type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?",
            [table.lowercased()])
        {
            types[try row.string("name")] = try row.string("type")
        }
        return types
    }

    /// A backed-up value for a column of `type`, converted as SQLite's column affinity would take it; anything
    /// else is refused naming the column.
    static func argument(_ value: DumpValue, type: String, at column: String) throws -> SQLArgument {
        func refuse() -> StoreError { .conflict(field: "data", message: "\(column) cannot hold \(value)") }
        /// A whole number in the range of the column's type.
        func whole(_ exact: Int?) throws -> Int {
            let range: ClosedRange<Int> =
                switch type {
                case "smallint": Int(Int16.min)...Int(Int16.max)
                case "integer": Int(Int32.min)...Int(Int32.max)
                default: Int.min...Int.max
                }
            guard let exact, range.contains(exact) else { throw refuse() }
            return exact
        }
        switch (value, type) {
        case (.null, _): return nil
        case (.text(let text), "text"): return text
        case (.integer(let number), "text"): return String(number)
        case (.real(let number), "text"): return String(number)
        case (.integer(let number), "integer"), (.integer(let number), "bigint"), (.integer(let number), "smallint"):
            return try whole(Int(exactly: number))
        case (.real(let number), "integer"), (.real(let number), "bigint"), (.real(let number), "smallint"):
            return try whole(Int(exactly: number))
        case (.text(let text), "integer"), (.text(let text), "bigint"), (.text(let text), "smallint"):
            return try whole(Int(text))
        case (.integer(let number), "double precision"): return Double(number)
        case (.real(let number), "double precision"): return number
        case (.text(let text), "double precision"):
            guard let value = Double(text), value.isFinite else { throw refuse() }
            return value
        case (.integer(let number), "boolean"):
            guard number == 0 || number == 1 else { throw refuse() }
            return number == 1
        case (.blob(let data), "bytea"): return data
        default: throw refuse()
        }
    }
}
