import Diary
import Foundation
import GRDB
import Persistence
import Secrets
import Synchronization

extension DiaryDatabase: DiaryEngine {
    public var location: String { "SQLite \(writer.path)" }

    public func isEmpty() async throws -> Bool {
        try await reading { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM families") ?? 0 } == 0
    }

    public func refreshStatistics() async throws -> Bool {
        try await writer.write { db in try Self.refreshStatistics(db) }
    }

    /// FTS5 writes each transaction's tokens as a new segment and merges segments only level by level, so a diary
    /// written an entry at a time keeps several (the bench's 100,000 entries written through the API: 10), and
    /// every term of every search looks each one up: `공원 산책` took 15 ms there, and 8.6 ms once merged into one.
    /// From `SearchIndex.segmentsWorthMerging` segments, they are merged into one by FTS5's incremental optimize
    /// (`'merge'` with a negative page count), a step of `pages` pages a transaction, so a write waits at most one
    /// step (about 2 MB written); the whole index of 100,000 entries (60 MB) takes some seconds.
    ///
    /// A write between two steps ends the merge (the next check goes on with it): SQLite before 3.41 would begin it
    /// again a level higher, and after 2,000 levels FTS5 cannot open the index (`SearchIndex.levelsAllowed`). An
    /// index with too many levels already — or none FTS5 can open, which an earlier Saessak could leave — is made
    /// again from its documents.
    public func tidySearchIndex() async throws -> Bool {
        try await tidySearchIndex(pages: SearchIndex.pagesAStep)
    }

    func tidySearchIndex(pages: Int) async throws -> Bool {
        guard let start = try await reading({ db in try SearchIndex.structure(db) }) else { return false }
        if start.levels >= SearchIndex.levelsAllowed {
            try await writer.write { db in try SearchIndex.rebuild(db) }
            return true
        }
        guard start.segments >= SearchIndex.segmentsWorthMerging else { return false }
        var left: SearchIndex.Structure?
        while true {
            let step = try await writer.write { [left] db -> (merged: Bool, left: SearchIndex.Structure?) in
                guard let now = try SearchIndex.structure(db), now.writes == (left ?? now).writes, now.levels < SearchIndex.levelsAllowed
                else { return (false, nil) }
                let merged = try SearchIndex.mergeStep(db, pages: pages)
                return (merged, try SearchIndex.structure(db))
            }
            guard step.merged else { break }
            left = step.left
            await Task.yield()
        }
        return true
    }

    public func close() {
        try? writer.close()
    }
}

extension DiaryDatabase {
    /// The backed-up tables this database's schema has (an older schema lacks the newer ones).
    public func backedUpTables() async throws -> [String] {
        let existing = try await reading { db in
            Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        }
        return BackupCatalogue.tables.filter(existing.contains)
    }

    /// The migrations this database has, oldest first: a backup restores only into the same schema.
    public func schemaVersion() async throws -> [String] {
        try await reading { db in try DiarySchema.migrator.appliedMigrations(db) }
    }

    /// Every backed-up table, read in one transaction (a consistent snapshot while the server writes). The
    /// resident number leaves only when asked, as its plain text (`residentNumber`), since the key stays behind;
    /// thumbnail state is not data (a restore makes the thumbnails again).
    ///
    /// With `family`, only that family's rows: the family, its members' accounts (with their password hashes, so the
    /// family can sign in on the server it is restored to) and everything that belongs to it. A reference to an
    /// account outside the family (who made an invitation and left since) becomes null.
    ///
    /// A family backup carries one password hash only: that of `credentialsOf`, who takes it (issue 17: it carried
    /// every member's, and a member may own another family on the same server). The others' become
    /// `noPassword`; after a restore they sign in once `saessak admin reset-password` has given them one.
    public func dump(includeSensitive: Bool, family: FamilyID?, credentialsOf: UserID?, into sink: some DumpSink) async throws {
        let cipher = cipher
        try await reading { db in
            var members: Set<String>?
            if let family {
                members = Set(try String.fetchAll(db, sql: "SELECT userId FROM memberships WHERE familyId = ?", arguments: [family.sql]))
            }
            let rules = DumpRules(includeSensitive: includeSensitive, members: members, credentialsOf: credentialsOf, cipher: cipher)
            for table in BackupCatalogue.tables {
                try sink.begin(table)
                let (filter, arguments) = try BackupCatalogue.scope(table: table, family: family).rendered { _ in "?" }
                let statement = try db.makeStatement(sql: "SELECT * FROM \(table) \(filter) ORDER BY rowid")
                let names = statement.columnNames
                let rows = try Row.fetchCursor(statement, arguments: StatementArguments(arguments.map(\.databaseValue)))
                while let row = try rows.next() {
                    var values: [String: DumpValue] = [:]
                    for (column, value) in zip(names, row.databaseValues) { values[column] = DumpValue(SQLValue(value)) }
                    try sink.write(try rules.dumped(values, table: table), of: table)
                }
            }
        }
    }

    /// Writes a backup's tables into this (new, empty) database in one transaction, sealing plain sensitive values
    /// with this database's key, then rebuilds the search index.
    public func load(from reader: some DumpReader) async throws {
        let cipher = cipher
        let tables = try await backedUpTables()
        try await writer.write { db in
            let existing = try Int.fetchOne(db, sql: "SELECT count(*) FROM families") ?? 0
            guard existing == 0 else { throw StoreError.conflict(field: "data", message: "the data folder already holds a diary") }
            // The tables refer to each other in a cycle (a child's profile photo is a photo; a photo belongs to the
            // family the child does): no table order satisfies every key row by row, so the keys are checked once,
            // when everything is in, and a backup that leaves one dangling is refused by name.
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            for table in tables {
                // Column names go into SQL: only the table's own.
                let known = Set(try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String })
                while true {
                    let batch = try reader.rows(of: table, limit: 1_000)
                    if batch.isEmpty { break }
                    for row in batch {
                        let row = try DumpRules.toLoad(row, table: table, cipher: cipher)
                        let columns = row.keys.sorted()
                        if let unknown = columns.first(where: { !known.contains($0) }) {
                            throw StoreError.conflict(field: "data", message: "\(table) has no column '\(unknown)'")
                        }
                        // One prepared statement for each table's set of columns (GRDB's cache).
                        try db.cachedStatement(
                            sql: "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(databaseQuestionMarks(count: columns.count)))"
                        ).execute(arguments: StatementArguments(columns.map { SQLValue(row[$0] ?? .null).databaseValue }))
                    }
                }
            }
            if let dangling = try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") {
                let table: String = dangling["table"]
                let parent: String = dangling["parent"]
                throw StoreError.conflict(field: "data", message: "a row of \(table) refers to a row of \(parent) the backup does not hold")
            }
            try SearchIndex.refreshAll(db)
        }
    }
}

extension DiaryDatabase {
    /// This database's backed-up tables read a page at a time (by rowid), as a dump would give them with sensitive
    /// values in plain text: what a restore through a scratch database hands the target engine. Nobody else writes
    /// to a scratch database, so the pages need no snapshot of their own.
    public func pages() -> some DumpReader {
        Pages(writer: writer, rules: DumpRules(includeSensitive: true, members: nil, credentialsOf: nil, cipher: cipher))
    }

    private final class Pages: DumpReader {
        let writer: DatabasePool
        let rules: DumpRules
        private let last = Mutex<[String: Int64]>([:])

        init(writer: DatabasePool, rules: DumpRules) {
            self.writer = writer
            self.rules = rules
        }

        func rows(of table: String, limit: Int) throws -> [[String: DumpValue]] {
            // Table names go into SQL: only a backup's.
            guard BackupCatalogue.tables.contains(table) else { return [] }
            let after = last.withLock { $0[table] } ?? Int64.min
            let (rows, end) = try writer.read { db in
                let statement = try db.makeStatement(sql: "SELECT rowid, * FROM \(table) WHERE rowid > ? ORDER BY rowid LIMIT ?")
                let names = statement.columnNames.dropFirst()
                var rows: [[String: DumpValue]] = []
                var end = after
                let cursor = try Row.fetchCursor(statement, arguments: [after, limit])
                while let row = try cursor.next() {
                    let values = Array(row.databaseValues)
                    end = Int64.fromDatabaseValue(values[0]) ?? end
                    var dumped: [String: DumpValue] = [:]
                    for (column, value) in zip(names, values.dropFirst()) { dumped[column] = DumpValue(SQLValue(value)) }
                    rows.append(try rules.dumped(dumped, table: table))
                }
                return (rows, end)
            }
            last.withLock { $0[table] = end }
            return rows
        }
    }
}
