import Diary
import Foundation
import GRDB
import Persistence
#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// GRDB has an `SQL` of its own; in this module the name is the stores' statement type.
typealias SQL = Persistence.SQL

/// `SQLSession` over one GRDB connection inside its transaction: each statement is prepared once per connection
/// (GRDB's statement cache) and bound with `?` placeholders.
struct SQLiteSession: SQLSession {
    let db: Database

    var dialect: SQLDialect { .sqlite }

    var searchIndex: any SearchIndexing { SQLiteSearchIndexing() }

    @discardableResult
    func execute(_ sql: SQL) throws -> Int {
        let (text, values) = sql.rendered { _ in "?" }
        try db.cachedStatement(sql: text).execute(arguments: StatementArguments(values.map(\.databaseValue)))
        return db.changesCount
    }

    /// The statement is bound, stepped and read through SQLite's own functions. Through GRDB's arguments and cursor,
    /// generic over any value and checking each, a twentieth of a busy timeline went to handing values over (issue 35).
    func rows(_ sql: SQL) throws -> [SQLRow] {
        let (text, values) = sql.rendered { _ in "?" }
        let statement = try db.cachedStatement(sql: text)
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        // Reset when done, so that no statement stays open when the transaction ends (GRDB's cursor did the same).
        defer { sqlite3_reset(handle) }
        guard sqlite3_bind_parameter_count(handle) == values.count else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "wrong number of statement arguments: \(values.count)", sql: text)
        }
        for (index, value) in values.enumerated() {
            let code = value.databaseValue.bind(to: handle, at: Int32(index + 1))
            guard code == SQLITE_OK else { throw failure(code, text) }
        }
        let columns = SQLColumns(statement.columnNames)
        let count = Int32(statement.columnCount)
        var rows: [SQLRow] = []
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_ROW:
                var row: [SQLValue] = []
                row.reserveCapacity(Int(count))
                for column in 0..<count { row.append(SQLValue(handle, column: column)) }
                rows.append(SQLRow(columns: columns, values: row))
            case SQLITE_DONE:
                return rows
            case let code:
                throw failure(code, text)
            }
        }
    }

    private func failure(_ code: Int32, _ sql: String) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
    }
}

extension DiaryDatabase: StoreDatabase {
    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try readingHere { db in try body(SQLiteSession(db: db)) }
    }

    public func write<T: Sendable>(rollingBack: Bool, _ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        do {
            return try await writeOnce(rollingBack: rollingBack, body)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
            // The transaction was rolled back whole: nothing acknowledged is lost.
            throw StorageFull("the database")
        }
    }

    private func writeOnce<T: Sendable>(rollingBack: Bool, _ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        guard rollingBack else { return try await writing { db in try body(SQLiteSession(db: db)) } }
        return try await writer.writeWithoutTransaction(
            StatementCount.carrying { db in
                var result: T?
                try db.inTransaction {
                    result = try body(SQLiteSession(db: db))
                    return .rollback
                }
                guard let result else { throw StoreError.unreadable("a dry run returned nothing") }
                return result
            })
    }
}

extension DiaryDatabase {
    /// SQLite keeps 2 MB of a connection's pages: an import's transaction (40 MB of pages for 10,000 entries) wrote
    /// its changed pages into the WAL as it went and read them back, 130,000 writes and as many reads (issue 35).
    /// The transaction may keep up to `bulkCacheKiB`; the connection is back to its own size before the commit,
    /// and lets go of the pages past it as soon as they are written.
    public func bulkWrite<T: Sendable>(rollingBack: Bool, _ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await write(rollingBack: rollingBack) { session in
            guard let db = (session as? SQLiteSession)?.db else { return try body(session) }
            let size = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
            try db.execute(sql: "PRAGMA cache_size = \(-Self.bulkCacheKiB)")
            defer { try? db.execute(sql: "PRAGMA cache_size = \(size)") }
            return try body(session)
        }
    }

    static let bulkCacheKiB = 64 << 10
}

/// The FTS5 index (`SearchIndex`), kept in step inside the stores' transactions.
struct SQLiteSearchIndexing: SearchIndexing {
    func refresh(_ session: any SQLSession, entry: EntryID) throws {
        try SearchIndex.refresh(try Self.database(session), entry: entry)
    }

    func refresh(_ session: any SQLSession, memo: MemoID) throws {
        try SearchIndex.refresh(try Self.database(session), memo: memo)
    }

    func refresh(_ session: any SQLSession, entries: [EntryID]) throws {
        try SearchIndex.refresh(try Self.database(session), entries: entries)
    }

    private static func database(_ session: any SQLSession) throws -> Database {
        guard let session = session as? SQLiteSession else { throw StoreError.unreadable("a SQLite index was handed another engine's session") }
        return session.db
    }
}

extension SQLValue {
    /// The value of `column` in the statement's current row. Text is read by its length in bytes (a NUL within it is
    /// kept, as PostgreSQL's answer would), its UTF-8 repaired where broken as every stored text's is.
    init(_ statement: OpaquePointer, column: Int32) {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: self = .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: self = .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            // `sqlite3_column_text` first: it may convert the value, and the byte count is of what it returns.
            guard let text = sqlite3_column_text(statement, column) else {
                self = .text("")
                return
            }
            self = .text(String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self))
        case SQLITE_BLOB:
            let bytes = sqlite3_column_blob(statement, column)
            let count = Int(sqlite3_column_bytes(statement, column))
            self = .blob(bytes.map { Data(bytes: $0, count: count) } ?? Data())
        default: self = .null
        }
    }

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
        case .bool(let flag): (flag ? 1 : 0).databaseValue
        }
    }
}
