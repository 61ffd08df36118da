import Diary
import Foundation

/// The rows a trashed item took along, as they were, and what it takes to put them back (docs/trash.md).
///
/// Each table's rows are kept as a backup keeps them (`DumpValue`s by the column names of `BackupCatalogue.columns`),
/// so a trashed item travels in a backup and between engines like any other row. Putting them back goes by the
/// item's `TrashPart`s, never by what the snapshot says: a snapshot may come from a restored backup, so its table
/// names choose nothing and its values are only ever bound.
struct TrashSnapshot: Codable, Equatable {
    struct Table: Codable, Equatable {
        let table: String
        var rows: [[String: DumpValue]]
    }

    var tables: [Table]
    /// Each entry's tags by name, in their order: tags are the family's, and one gone meanwhile is made again by name.
    var tags: [String: [String]]

    init(tables: [Table] = [], tags: [String: [String]] = [:]) {
        self.tables = tables
        self.tags = tags
    }

    func rows(of table: String) -> [[String: DumpValue]] {
        tables.filter { $0.table == table }.flatMap(\.rows)
    }

    /// Reads the rows of each part, without their sealed values: those stay sealed in a column of the trash row
    /// (`trashItems.residentNumberSealed`), where key rotation and backups find them as they find every sealed value.
    static func capture(_ db: any SQLSession, _ parts: [TrashPart]) throws -> TrashSnapshot {
        var snapshot = TrashSnapshot()
        for part in parts {
            let sealed = Set(BackupCatalogue.sealedColumns.filter { $0.table == part.table }.map(\.column))
            let columns = try part.columns().filter { !sealed.contains($0) }
            let rows = try db.rows("SELECT * FROM \(raw: part.table) WHERE \(part.condition)").map { row in
                var values: [String: DumpValue] = [:]
                for column in columns where row.has(column) { values[column] = DumpValue(try row.value(column)) }
                return values
            }
            snapshot.tables.append(Table(table: part.table, rows: rows))
        }
        return snapshot
    }

    /// Writes the rows of each part back, parents first; a row naming what is gone for good is left out (or the
    /// reference cleared, where the column may be empty), and said so in `leftOut`.
    func put(_ db: any SQLSession, _ parts: [TrashPart], leftOut: inout [String]) throws {
        for part in parts {
            let sealed = Set(BackupCatalogue.sealedColumns.filter { $0.table == part.table }.map(\.column))
            let columns = try part.columns().filter { !sealed.contains($0) }
            rows: for var row in rows(of: part.table) {
                for need in part.needs {
                    guard case .text(let id) = row[need.column] ?? .null else { continue }
                    if try !db.exists("SELECT 1 FROM \(raw: need.table) WHERE id = \(id)") {
                        leftOut.append("\(part.table).\(need.column) \(id)")
                        continue rows
                    }
                }
                for clear in part.clears {
                    guard case .text(let id) = row[clear.column] ?? .null else { continue }
                    if try !db.exists("SELECT 1 FROM \(raw: clear.table) WHERE id = \(id)") { row[clear.column] = .null }
                }
                let present = columns.filter { row[$0] != nil }
                guard !present.isEmpty else { continue }
                let values = present.map { column in
                    Self.value(row[column] ?? .null, boolean: BackupCatalogue.booleanColumns.contains("\(part.table).\(column)"))
                }
                try db.execute("INSERT INTO \(raw: part.table) (\(raw: present.joined(separator: ", "))) VALUES \(list: values)")
            }
        }
    }

    /// A stored value bound as its column takes it: booleans (kept as 0 and 1, as SQLite and backups keep them)
    /// as booleans, which PostgreSQL's columns need.
    static func value(_ value: DumpValue, boolean: Bool) -> SQLValue {
        if boolean, case .integer(let number) = value { return .bool(number != 0) }
        return SQLValue(value)
    }

    func encoded() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    static func decoded(_ text: String) throws -> TrashSnapshot {
        do {
            return try JSONDecoder().decode(TrashSnapshot.self, from: Data(text.utf8))
        } catch {
            throw StoreError.unreadable("a trashed item's rows: \(error)")
        }
    }
}

/// One table's share of a trashed item: which rows go (`condition`, after `WHERE`), and what must still be there
/// for each to come back.
struct TrashPart {
    let table: String
    let condition: SQL
    /// Columns naming a row (by `id`, in `table`) without which the row cannot come back: it is left out.
    var needs: [(column: String, table: String)] = []
    /// Columns naming a row that may be gone: the reference is cleared (a comment whose author's account was deleted).
    var clears: [(column: String, table: String)] = []

    func columns() throws -> [String] {
        guard let columns = BackupCatalogue.columns[table] else {
            throw StoreError.unreadable("\(table) is not a table a trashed item keeps")
        }
        return columns
    }
}
