import Diary
import Foundation
import GRDB
import Secrets

/// One table's rows as plain values: what a backup holds and a restore writes back.
public struct TableDump: Sendable, Equatable {
    public let name: String
    /// Rows in primary-key order, each column by name.
    public var rows: [[String: DumpValue]]

    public init(name: String, rows: [[String: DumpValue]]) {
        self.name = name
        self.rows = rows
    }
}

/// A value as SQLite stores it. In JSON: null, a number, a string, or `{"base64": …}` for bytes (token digests).
public enum DumpValue: Sendable, Equatable, Codable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let number): self = .integer(number)
        case .double(let number): self = .real(number)
        case .string(let text): self = .text(text)
        case .blob(let data): self = .blob(data)
        }
    }

    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let number): number.databaseValue
        case .real(let number): number.databaseValue
        case .text(let text): text.databaseValue
        case .blob(let data): data.databaseValue
        }
    }

    private enum BlobKey: String, CodingKey { case base64 }

    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: BlobKey.self) {
            guard let data = Data(base64Encoded: try object.decode(String.self, forKey: .base64)) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not base64"))
            }
            self = .blob(data)
            return
        }
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if let number = try? value.decode(Int64.self) {
            self = .integer(number)
        } else if let number = try? value.decode(Double.self) {
            self = .real(number)
        } else {
            self = .text(try value.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .blob(let data):
            var object = encoder.container(keyedBy: BlobKey.self)
            try object.encode(data.base64EncodedString(), forKey: .base64)
        case .null:
            var value = encoder.singleValueContainer()
            try value.encodeNil()
        case .integer(let number):
            var value = encoder.singleValueContainer()
            try value.encode(number)
        case .real(let number):
            var value = encoder.singleValueContainer()
            try value.encode(number)
        case .text(let text):
            var value = encoder.singleValueContainer()
            try value.encode(text)
        }
    }
}

extension DiaryDatabase {
    /// The tables a backup holds, parents before children. Left out: sessions (a restored server signs everyone in
    /// again) and the search index (rebuilt from the entries and memos).
    public static let backupTables = [
        "families", "users", "memberships", "apiTokens", "children", "entries", "entryChildren", "tags", "entryTags",
        "photos", "entryPhotos", "events", "eventPhotos", "anniversaries", "memos", "growthMeasurements", "vaccinations",
        "vaccinationChoices", "vaccinationSkips", "invitations", "shareLinks", "shareLinkEntries", "calendarFeeds",
        "importedItems", "comments", "hearts", "entryReads",
    ]

    /// The password hash of an account whose hash a family backup left out: it matches no password.
    public static let noPassword = "!"

    /// The backed-up tables this database's schema has (an older schema lacks the newer ones).
    public func backedUpTables() async throws -> [String] {
        let existing = try await writer.read { db in
            Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        }
        return Self.backupTables.filter(existing.contains)
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
            return try Self.backupTables.map { table in
                let (filter, arguments) = try Self.scope(table: table, columns: try db.columns(in: table).map(\.name), family: family)
                let rows = try Row.fetchAll(
                    db, sql: "SELECT * FROM \(table) \(filter) ORDER BY rowid", arguments: StatementArguments(arguments)
                ).map { row in
                    var values: [String: DumpValue] = [:]
                    for column in row.columnNames { values[column] = DumpValue(row[column] as DatabaseValue) }
                    return try rules.dumped(values, table: table)
                }
                return TableDump(name: table, rows: rows)
            }
        }
    }

    /// The WHERE clause that keeps one family's rows of a table (none without a family), for either engine: the
    /// family itself, its members' accounts, measurements through their children, and every row with its family.
    package static func scope(table: String, columns: [String], family: FamilyID?) throws -> (filter: String, arguments: [String]) {
        guard let family else { return ("", []) }
        switch table {
        case "families": return ("WHERE id = ?", [family.sql])
        case "users": return ("WHERE id IN (SELECT userId FROM memberships WHERE familyId = ?)", [family.sql])
        case "growthMeasurements": return ("WHERE childId IN (SELECT id FROM children WHERE familyId = ?)", [family.sql])
        // A heart is its member's: one who left the family takes it along (their account is not in the backup).
        case "hearts", "entryReads": return ("WHERE familyId = ? AND userId IN (SELECT userId FROM memberships WHERE familyId = ?)", [family.sql, family.sql])
        default:
            guard columns.contains("familyId") else {
                throw StoreError.conflict(field: table, message: "has no family to scope a backup by")
            }
            return ("WHERE familyId = ?", [family.sql])
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
                guard Self.backupTables.contains(table.name) else {
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
                        arguments: StatementArguments(columns.map { row[$0]!.databaseValue }))
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

    /// `residentNumberSealed` → `residentNumber`.
    static func plainColumn(_ sealed: String) -> String {
        sealed.hasSuffix("Sealed") ? String(sealed.dropLast("Sealed".count)) : sealed + "Plain"
    }
}

/// What a backup changes in a row on the way out and back in, the same for every engine: sensitive values leave
/// as plain text only when asked (the key stays behind) and are sealed again with the receiving database's key;
/// thumbnail state is not data; a family backup carries one password hash and no references to outsiders.
package struct DumpRules: Sendable {
    let includeSensitive: Bool
    /// The family's members, for a family backup (nil: the whole database).
    let members: Set<String>?
    let credentialsOf: UserID?
    let cipher: FieldCipher

    package init(includeSensitive: Bool, members: Set<String>?, credentialsOf: UserID?, cipher: FieldCipher) {
        self.includeSensitive = includeSensitive
        self.members = members
        self.credentialsOf = credentialsOf
        self.cipher = cipher
    }

    package func dumped(_ row: [String: DumpValue], table: String) throws -> [String: DumpValue] {
        var values = row
        if table == "photos" {
            values["thumbnails"] = nil
            values["renditionProgress"] = nil
            // Whether a clip needs a web rendition is data; whether it has been made is not (it is made again).
            if case .text(let state) = values["rendition"] ?? .null, state != "none" { values["rendition"] = .text("pending") }
        }
        if members != nil, table == "users", values["id"] != credentialsOf.map({ .text($0.sql) }) {
            values["passwordHash"] = .text(DiaryDatabase.noPassword)
        }
        for sealed in DiaryDatabase.sealedColumns where sealed.table == table {
            guard case .blob(let data) = values.removeValue(forKey: sealed.column) ?? .null else { continue }
            if includeSensitive {
                values[DiaryDatabase.plainColumn(sealed.column)] = .text(try cipher.open(data))
            }
        }
        if let members, table != "users", table != "memberships", table != "apiTokens" {
            for column in ["createdBy", "acceptedBy", "authorId"] {
                if case .text(let user) = values[column] ?? .null, !members.contains(user) { values[column] = .null }
            }
        }
        return values
    }

    /// A backed-up row as it is written back: thumbnails and renditions to be made again, plain sensitive values
    /// sealed with `cipher`.
    package static func toLoad(_ row: [String: DumpValue], table: String, cipher: FieldCipher) throws -> [String: DumpValue] {
        var row = row
        if table == "photos" {
            row["thumbnails"] = .text("pending")
            // A clip's web rendition is made again from its original (a backup carries originals only).
            if case .text(let state) = row["rendition"] ?? .null, state != "none" { row["rendition"] = .text("pending") }
        }
        for sealed in DiaryDatabase.sealedColumns where sealed.table == table {
            if case .text(let plain) = row.removeValue(forKey: DiaryDatabase.plainColumn(sealed.column)) ?? .null {
                row[sealed.column] = .blob(try cipher.seal(plain))
            }
        }
        return row
    }
}
