import Diary
import Foundation
import Logging
import Persistence
import NIOPosix
import PostgresNIO

/// A value bound to a statement: text, numbers, bytes, booleans, text arrays, or nil for NULL.
public typealias SQLArgument = (any PostgresThrowingDynamicTypeEncodable & Sendable)?

/// One transaction on one connection, with the few calls the stores make. Statements are written with `?`
/// placeholders, as for SQLite, and numbered (`$1`, `$2`, …) here, so the two engines' SQL reads alike.
public struct PostgresTransaction: Sendable {
    let connection: PostgresConnection
    let logger: Logger
    let threads: NIOThreadPool

    /// Runs statements of a store written once over `SQLSession` in this transaction, on the database's threads.
    func session<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        let (connection, logger) = (connection, logger)
        let run = StatementCount.carrying { (_: Void) in try body(PostgresSession(connection: connection, logger: logger)) }
        return try await threads.runIfActive { try run(()) }
    }

    /// Runs a statement; returns how many rows it returned (with `RETURNING`, how many it changed).
    @discardableResult
    public func execute(_ sql: String, _ arguments: [SQLArgument] = []) async throws -> Int {
        try await rows(sql, arguments).count
    }

    /// The rows, gathered on the connection's event loop and handed over once: the task waits once a statement
    /// (reading postgres-nio's row sequence waited for the statement's start and again for its rows: a thread hand-off
    /// each, and a page's reads were mostly those).
    public func rows(_ sql: String, _ arguments: [SQLArgument] = []) async throws -> [PostgresRecord] {
        let query = PostgresQuery(unsafeSQL: Self.numbered(sql), binds: try Self.bindings(arguments))
        StatementCount.current?.add()
        let result: PostgresQueryResult = try await connection.query(query, logger: logger).get()
        var records: [PostgresRecord] = []
        records.reserveCapacity(result.rows.count)
        var names: [String: Int]?
        for row in result.rows {
            let record = PostgresRecord(row, names: names)
            names = record.byName
            records.append(record)
        }
        return records
    }

    /// Sends a statement without waiting for its answer: the connection runs its statements in order, so the next
    /// one waited for has this one's answer behind it. Its failure, if any, is handed to `failed` on the event loop.
    func send(_ sql: String, failed: @escaping @Sendable (any Error) -> Void) {
        StatementCount.current?.add()
        let result: EventLoopFuture<PostgresQueryResult> = connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        result.whenFailure(failed)
    }

    /// Runs a query and hands `body` each row as it arrives, holding none of them.
    public func forEachRow(_ sql: String, _ arguments: [SQLArgument] = [], _ body: (PostgresRecord) throws -> Void) async throws {
        let query = PostgresQuery(unsafeSQL: Self.numbered(sql), binds: try Self.bindings(arguments))
        StatementCount.current?.add()
        var names: [String: Int]?
        for try await row in try await connection.query(query, logger: logger) {
            let record = PostgresRecord(row, names: names)
            names = record.byName
            try body(record)
        }
    }

    /// `COPY table (columns) FROM STDIN` of `lines` in the text format (a row a line, columns tab-separated).
    /// Table and column names go into SQL as they are (only the program's own), quoted, so as PostgreSQL folds them.
    func copy(into table: String, columns: [String], _ lines: ByteBuffer) async throws {
        StatementCount.current?.add()
        try await connection.copyFrom(table: table.lowercased(), columns: columns.map { $0.lowercased() }, logger: logger) { writer in
            try await writer.write(lines)
        }
    }

    public func row(_ sql: String, _ arguments: [SQLArgument] = []) async throws -> PostgresRecord? {
        try await rows(sql, arguments).first
    }

    /// The first column of the first row, or nil when there is no row (or it is NULL).
    public func string(_ sql: String, _ arguments: [SQLArgument] = []) async throws -> String? {
        try await row(sql, arguments)?.optionalString(at: 0)
    }

    public func strings(_ sql: String, _ arguments: [SQLArgument] = []) async throws -> [String] {
        try await rows(sql, arguments).map { try $0.string(at: 0) }
    }

    public func int(_ sql: String, _ arguments: [SQLArgument] = []) async throws -> Int? {
        try await row(sql, arguments)?.optionalInt(at: 0)
    }

    public func exists(_ sql: String, _ arguments: [SQLArgument] = []) async throws -> Bool {
        try await row(sql, arguments) != nil
    }

    /// `?` → `$1`, `$2`, … outside quoted literals and identifiers.
    static func numbered(_ sql: String) -> String {
        var result = ""
        result.reserveCapacity(sql.utf8.count + 16)
        var number = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                result.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                result.append(character)
            } else if character == "?" {
                number += 1
                result += "$\(number)"
            } else {
                result.append(character)
            }
        }
        return result
    }

    static func bindings(_ arguments: [SQLArgument]) throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: arguments.count)
        for argument in arguments {
            if let argument { try bindings.append(argument) } else { bindings.appendNull() }
        }
        return bindings
    }
}

/// A row, its columns by name (PostgreSQL folds unquoted names to lower case: `familyId` is `familyid`) or position.
public struct PostgresRecord: Sendable {
    let cells: [PostgresCell]
    let byName: [String: Int]

    /// A row; `names` are the columns' positions by name when an earlier row of the same result has them (every
    /// row of a result has the same columns: the map is made once, not once a row).
    init(_ row: PostgresRow, names: [String: Int]? = nil) {
        cells = Array(row)
        if let names {
            byName = names
        } else {
            var byName: [String: Int] = [:]
            for (index, cell) in cells.enumerated() where byName[cell.columnName] == nil { byName[cell.columnName] = index }
            self.byName = byName
        }
    }

    /// The columns in order, with their names: a backup reads every column of a row.
    var columns: [PostgresCell] { cells }

    private func cell(_ column: String) throws -> PostgresCell {
        guard let index = byName[column.lowercased()] else { throw StoreError.unreadable("no column \(column)") }
        return cells[index]
    }

    private func cell(at index: Int) throws -> PostgresCell {
        guard cells.indices.contains(index) else { throw StoreError.unreadable("no column \(index)") }
        return cells[index]
    }

    private func decode<T: PostgresDecodable>(_ type: T.Type, _ cell: PostgresCell) throws -> T {
        do {
            return try cell.decode(T.self)
        } catch {
            throw StoreError.unreadable("\(cell.columnName): not a \(T.self)")
        }
    }

    public func string(_ column: String) throws -> String { try decode(String.self, try cell(column)) }
    public func optionalString(_ column: String) throws -> String? { try decode(String?.self, try cell(column)) }
    public func int(_ column: String) throws -> Int { try decode(Int.self, try cell(column)) }
    public func optionalInt(_ column: String) throws -> Int? { try decode(Int?.self, try cell(column)) }
    public func double(_ column: String) throws -> Double { try decode(Double.self, try cell(column)) }
    public func optionalDouble(_ column: String) throws -> Double? { try decode(Double?.self, try cell(column)) }
    public func bool(_ column: String) throws -> Bool { try decode(Bool.self, try cell(column)) }
    public func optionalData(_ column: String) throws -> Data? { try decode(Data?.self, try cell(column)) }

    public func optionalData(at index: Int) throws -> Data? { try decode(Data?.self, try cell(at: index)) }
    func string(at index: Int) throws -> String { try decode(String.self, try cell(at: index)) }
    func optionalString(at index: Int) throws -> String? { try decode(String?.self, try cell(at: index)) }
    func optionalInt(at index: Int) throws -> Int? { try decode(Int?.self, try cell(at: index)) }

    func id<Owner>(_ column: String) throws -> Identifier<Owner> {
        let text = try string(column)
        guard let id = Identifier<Owner>(text) else { throw StoreError.unreadable("\(column) '\(text)' is not a UUID") }
        return id
    }

    func optionalID<Owner>(_ column: String) throws -> Identifier<Owner>? {
        guard let text = try optionalString(column) else { return nil }
        guard let id = Identifier<Owner>(text) else { throw StoreError.unreadable("\(column) '\(text)' is not a UUID") }
        return id
    }

    func timestamp(_ column: String) throws -> Date {
        let text = try string(column)
        guard let date = StoredTime.date(text) else { throw StoreError.unreadable("\(column) '\(text)' is not a timestamp") }
        return date
    }

    func optionalTimestamp(_ column: String) throws -> Date? {
        try optionalString(column) == nil ? nil : try timestamp(column)
    }
}
