import Diary
import Foundation
import GRDB
import Persistence
import Secrets

extension DiaryDatabase: DiaryEngine {
    public var location: String { "SQLite \(writer.path)" }

    public func isEmpty() async throws -> Bool {
        try await writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM families") ?? 0 } == 0
    }

    public func refreshStatistics() async throws -> Bool {
        try await writer.write { db in try Self.refreshStatistics(db) }
    }

    public func close() {
        try? writer.close()
    }
}

extension DiaryDatabase {
    /// The backed-up tables this database's schema has (an older schema lacks the newer ones).
    public func backedUpTables() async throws -> [String] {
        let existing = try await writer.read { db in
            Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        }
        return BackupCatalogue.tables.filter(existing.contains)
    }

    /// The migrations this database has, oldest first: a backup restores only into the same schema.
    public func schemaVersion() async throws -> [String] {
        try await writer.read { db in try DiarySchema.migrator.appliedMigrations(db) }
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
    public func dump(includeSensitive: Bool, family: FamilyID?, credentialsOf: UserID?) async throws -> [TableDump] {
        let cipher = cipher
        return try await writer.read { db in
            var members: Set<String>?
            if let family {
                members = Set(try String.fetchAll(db, sql: "SELECT userId FROM memberships WHERE familyId = ?", arguments: [family.sql]))
            }
            let rules = DumpRules(includeSensitive: includeSensitive, members: members, credentialsOf: credentialsOf, cipher: cipher)
            return try BackupCatalogue.tables.map { table in
                let scope = try BackupCatalogue.scope(table: table, family: family)
                let rows = try SQLiteSession(db: db).rows("SELECT * FROM \(raw: table) \(scope) ORDER BY rowid").map { row in
                    var values: [String: DumpValue] = [:]
                    for (column, value) in zip(row.names, row.values) { values[column] = DumpValue(value) }
                    return try rules.dumped(values, table: table)
                }
                return TableDump(name: table, rows: rows)
            }
        }
    }

    /// Writes a backup's tables into this (new, empty) database in one transaction, sealing plain sensitive values
    /// with this database's key, then rebuilds the search index.
    public func load(_ tables: [TableDump]) async throws {
        let cipher = cipher
        try await writer.write { db in
            let existing = try Int.fetchOne(db, sql: "SELECT count(*) FROM families") ?? 0
            guard existing == 0 else { throw StoreError.conflict(field: "data", message: "the data folder already holds a diary") }
            // The tables refer to each other in a cycle (a child's profile photo is a photo; a photo belongs to the
            // family the child does): no table order satisfies every key row by row, so the keys are checked once,
            // when everything is in, and a backup that leaves one dangling is refused by name.
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            for table in tables {
                guard BackupCatalogue.tables.contains(table.name) else {
                    throw StoreError.conflict(field: "data", message: "'\(table.name)' is not a table a backup holds")
                }
                // Column names go into SQL: only the table's own.
                let known = Set(try Row.fetchAll(db, sql: "PRAGMA table_info(\(table.name))").map { $0["name"] as String })
                for row in table.rows {
                    let row = try DumpRules.toLoad(row, table: table.name, cipher: cipher)
                    let columns = row.keys.sorted()
                    if let unknown = columns.first(where: { !known.contains($0) }) {
                        throw StoreError.conflict(field: "data", message: "\(table.name) has no column '\(unknown)'")
                    }
                    try db.execute(
                        sql: "INSERT INTO \(table.name) (\(columns.joined(separator: ", "))) VALUES (\(databaseQuestionMarks(count: columns.count)))",
                        arguments: StatementArguments(columns.map { SQLValue(row[$0] ?? .null).databaseValue }))
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
