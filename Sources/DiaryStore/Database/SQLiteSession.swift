import Diary
import GRDB
import Persistence

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

    func rows(_ sql: SQL) throws -> [SQLRow] {
        let (text, values) = sql.rendered { _ in "?" }
        let statement = try db.cachedStatement(sql: text)
        let columns = SQLColumns(statement.columnNames)
        let count = statement.columnCount
        // Each value read once from the statement's current row (`Row.fetchAll` copied every row into a `Row`, which
        // was then copied again).
        let cursor = try Row.fetchCursor(statement, arguments: StatementArguments(values.map(\.databaseValue)))
        var rows: [SQLRow] = []
        while let row = try cursor.next() {
            rows.append(SQLRow(columns: columns, values: (0..<count).map { SQLValue(row[$0] as DatabaseValue) }))
        }
        return rows
    }
}

extension DiaryDatabase: StoreDatabase {
    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try readingHere { db in try body(SQLiteSession(db: db)) }
    }

    public func write<T: Sendable>(rollingBack: Bool, _ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
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

/// The FTS5 index (`SearchIndex`), kept in step inside the stores' transactions.
struct SQLiteSearchIndexing: SearchIndexing {
    func refresh(_ session: any SQLSession, entry: EntryID) throws {
        try SearchIndex.refresh(try Self.database(session), entry: entry)
    }

    func refresh(_ session: any SQLSession, memo: MemoID) throws {
        try SearchIndex.refresh(try Self.database(session), memo: memo)
    }

    private static func database(_ session: any SQLSession) throws -> Database {
        guard let session = session as? SQLiteSession else { throw StoreError.unreadable("a SQLite index was handed another engine's session") }
        return session.db
    }
}

extension SQLValue {
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
