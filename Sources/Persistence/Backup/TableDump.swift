import Diary
import Foundation
import Secrets
import Synchronization

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

/// Where a dump's rows go as they are read, one at a time: every backed-up table in `BackupCatalogue.tables`' order,
/// each table's rows in key order (a backup writes them straight to its files, never holding a table whole).
public protocol DumpSink: Sendable {
    /// A table begins (each is begun once, even when it has no rows).
    func begin(_ table: String) throws
    func write(_ row: [String: DumpValue], of table: String) throws
}

/// Where a load reads a backup's rows from, a table at a time, parents first (`BackupCatalogue.tables`' order), a
/// batch at a time: the next rows of `table`, at most `limit`, none once it has given them all. A reader is read
/// once, by one load.
public protocol DumpReader: Sendable {
    func rows(of table: String, limit: Int) throws -> [[String: DumpValue]]
}

/// Tables held in memory: what tests compare, and a reader and a sink of them.
public final class DumpTables: DumpSink, DumpReader {
    private let state: Mutex<(tables: [TableDump], read: [String: Int])>

    public init(_ tables: [TableDump] = []) {
        state = Mutex((tables, [:]))
    }

    public var tables: [TableDump] {
        state.withLock { $0.tables }
    }

    public func begin(_ table: String) throws {
        state.withLock { $0.tables.append(TableDump(name: table, rows: [])) }
    }

    /// A row of the table begun last; of any other, refused (a dump that forgot `begin` must not lose rows unseen).
    public func write(_ row: [String: DumpValue], of table: String) throws {
        try state.withLock { state in
            guard let last = state.tables.indices.last, state.tables[last].name == table else {
                throw StoreError.unreadable("a row of \(table) written before its table was begun")
            }
            state.tables[last].rows.append(row)
        }
    }

    public func rows(of table: String, limit: Int) throws -> [[String: DumpValue]] {
        state.withLock { state in
            guard let rows = state.tables.first(where: { $0.name == table })?.rows else { return [] }
            let start = state.read[table, default: 0]
            let end = min(rows.count, start + limit)
            state.read[table] = end
            return Array(rows[start..<end])
        }
    }
}

/// A value as SQLite stores it. In JSON: null, a number, a string, or `{"base64": …}` for bytes (token digests).
public enum DumpValue: Sendable, Equatable, Codable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    /// A value as a backup keeps it: booleans as 0 and 1, as SQLite stores them.
    public init(_ value: SQLValue) {
        switch value {
        case .null: self = .null
        case .integer(let number): self = .integer(number)
        case .real(let number): self = .real(number)
        case .text(let text): self = .text(text)
        case .blob(let data): self = .blob(data)
        case .bool(let flag): self = .integer(flag ? 1 : 0)
        }
    }

    private enum BlobKey: String, CodingKey { case base64 }

    /// The kinds are tried most common first: a value of another kind is refused with a thrown error, which costs more
    /// than the value, and a restore reads millions (text was tried fourth, after three refusals, and decoding was
    /// most of reading a backup).
    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if let text = try? value.decode(String.self) {
            self = .text(text)
        } else if let number = try? value.decode(Int64.self) {
            self = .integer(number)
        } else if let number = try? value.decode(Double.self) {
            self = .real(number)
        } else {
            let object = try decoder.container(keyedBy: BlobKey.self)
            guard let data = Data(base64Encoded: try object.decode(String.self, forKey: .base64)) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not base64"))
            }
            self = .blob(data)
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

/// What a backup changes in a row on the way out and back in, the same for every engine: sensitive values leave
/// as plain text only when asked (the key stays behind) and are sealed again with the receiving database's key;
/// thumbnail state is not data; a family backup carries one password hash and no references to outsiders.
public struct DumpRules: Sendable {
    let includeSensitive: Bool
    /// The family's members, for a family backup (nil: the whole database).
    let members: Set<String>?
    let credentialsOf: UserID?
    let cipher: FieldCipher

    public init(includeSensitive: Bool, members: Set<String>?, credentialsOf: UserID?, cipher: FieldCipher) {
        self.includeSensitive = includeSensitive
        self.members = members
        self.credentialsOf = credentialsOf
        self.cipher = cipher
    }

    public func dumped(_ row: [String: DumpValue], table: String) throws -> [String: DumpValue] {
        var values = row
        if table == "photos" {
            values["thumbnails"] = nil
            values["renditionProgress"] = nil
            // Whether a clip needs a web rendition is data; whether it has been made is not (it is made again).
            if case .text(let state) = values["rendition"] ?? .null, state != "none" { values["rendition"] = .text("pending") }
        }
        if members != nil, table == "users", values["id"] != credentialsOf.map({ .text($0.sql) }) {
            values["passwordHash"] = .text(BackupCatalogue.noPassword)
        }
        for sealed in BackupCatalogue.sealedColumns where sealed.table == table {
            guard case .blob(let data) = values.removeValue(forKey: sealed.column) ?? .null else { continue }
            if includeSensitive {
                values[BackupCatalogue.plainColumn(sealed.column)] = .text(try cipher.open(data))
            }
        }
        if let members, table != "users", table != "memberships", table != "apiTokens" {
            for column in ["createdBy", "acceptedBy", "authorId", "deletedBy", "savedBy", "replacedBy", "actorId"] {
                if case .text(let user) = values[column] ?? .null, !members.contains(user) { values[column] = .null }
            }
        }
        return values
    }

    /// A backed-up row as it is written back: thumbnails and renditions to be made again, plain sensitive values
    /// sealed with `cipher`.
    public static func toLoad(_ row: [String: DumpValue], table: String, cipher: FieldCipher) throws -> [String: DumpValue] {
        var row = row
        if table == "photos" {
            row["thumbnails"] = .text("pending")
            // A clip's web rendition is made again from its original (a backup carries originals only).
            if case .text(let state) = row["rendition"] ?? .null, state != "none" { row["rendition"] = .text("pending") }
        }
        for sealed in BackupCatalogue.sealedColumns where sealed.table == table {
            if case .text(let plain) = row.removeValue(forKey: BackupCatalogue.plainColumn(sealed.column)) ?? .null {
                row[sealed.column] = .blob(try cipher.seal(plain))
            }
        }
        return row
    }
}

extension SQLValue {
    public init(_ value: DumpValue) {
        switch value {
        case .null: self = .null
        case .integer(let number): self = .integer(number)
        case .real(let number): self = .real(number)
        case .text(let text): self = .text(text)
        case .blob(let data): self = .blob(data)
        }
    }
}
