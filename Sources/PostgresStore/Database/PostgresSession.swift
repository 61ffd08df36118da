import Diary
import Foundation
import Logging
import NIOCore
import NIOPosix
import Persistence
import PostgresNIO

/// `SQLSession` over one PostgreSQL connection inside its transaction. The stores' transactions are synchronous
/// closures (as SQLite's are): `PostgresDatabase` runs each on a thread of its own pool, never an event loop or a
/// task's thread, and each statement here waits for its answer. Placeholders are numbered (`$1`, `$2`, …).
struct PostgresSession: SQLSession {
    let connection: PostgresConnection
    let logger: Logger

    var dialect: SQLDialect { .postgres }

    var searchIndex: any SearchIndexing { PostgresSearchIndexing() }

    @discardableResult
    func execute(_ sql: SQL) throws -> Int {
        try run(sql).metadata.rows ?? 0
    }

    func rows(_ sql: SQL) throws -> [SQLRow] {
        let result = try run(sql)
        guard let first = result.rows.first else { return [] }
        let columns = SQLColumns(first.map(\.columnName))
        return try result.rows.map { row in SQLRow(columns: columns, values: try row.map(Self.value)) }
    }

    /// PostgreSQL's own statements (arrays bound with `unnest`, in the search index), with `?` placeholders.
    func records(_ text: String, _ arguments: [SQLArgument]) throws -> [PostgresRecord] {
        let query = PostgresQuery(unsafeSQL: PostgresTransaction.numbered(text), binds: try PostgresTransaction.bindings(arguments))
        StatementCount.current?.add()
        var names: [String: Int]?
        return try connection.query(query, logger: logger).wait().rows.map { row in
            let record = PostgresRecord(row, names: names)
            names = record.byName
            return record
        }
    }

    private func run(_ sql: SQL) throws -> PostgresQueryResult {
        let (text, values) = sql.rendered { "$\($0)" }
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .null: bindings.appendNull()
            case .integer(let number): bindings.append(number)
            case .real(let number): bindings.append(number)
            case .text(let text): bindings.append(text)
            case .blob(let data): bindings.append(ByteBuffer(bytes: data))
            case .bool(let flag): bindings.append(flag)
            }
        }
        StatementCount.current?.add()
        return try connection.query(PostgresQuery(unsafeSQL: text, binds: bindings), logger: logger).wait()
    }

    /// A cell as the stores read it: booleans, integers, reals, bytes, and everything else as text.
    static func value(_ cell: PostgresCell) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        do {
            switch cell.dataType {
            case .bool: return .bool(try cell.decode(Bool.self))
            case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
            case .float4, .float8: return .real(try cell.decode(Double.self))
            case .bytea: return .blob(try cell.decode(Data.self))
            default: return .text(try cell.decode(String.self))
            }
        } catch {
            throw StoreError.unreadable("\(cell.columnName): \(error)")
        }
    }
}

/// The token table (`PostgresSearchIndex`), kept in step inside the stores' transactions.
struct PostgresSearchIndexing: SearchIndexing {
    func refresh(_ session: any SQLSession, entry: EntryID) throws {
        try PostgresSearchIndex.refresh(try Self.session(session), entry: entry)
    }

    func refresh(_ session: any SQLSession, memo: MemoID) throws {
        try PostgresSearchIndex.refresh(try Self.session(session), memo: memo)
    }

    private static func session(_ session: any SQLSession) throws -> PostgresSession {
        guard let session = session as? PostgresSession else {
            throw StoreError.unreadable("a PostgreSQL index was handed another engine's session")
        }
        return session
    }
}

extension PostgresDatabase: StoreDatabase {
    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await readAsync { transaction in try await transaction.session(body) }
    }

    public func write<T: Sendable>(rollingBack: Bool, _ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await writeAsync(rollingBack: rollingBack) { transaction in try await transaction.session(body) }
    }
}
