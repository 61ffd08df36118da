import Diary
import Foundation
import Secrets

/// One transaction on one connection: the few calls every store makes, the same on both engines. A session is
/// synchronous: SQLite runs a transaction as one closure on its writer's thread (GRDB), and PostgreSQL runs the same
/// closure on a thread of its own pool, each statement waiting for its answer (see docs/architecture.md, "One store
/// for both engines").
public protocol SQLSession {
    var dialect: SQLDialect { get }

    /// Runs a statement; returns how many rows it changed (inserted, updated or deleted).
    @discardableResult
    func execute(_ sql: SQL) throws -> Int

    /// Runs a query (or a statement with `RETURNING`) and reads every row.
    func rows(_ sql: SQL) throws -> [SQLRow]

    /// The engine's search index, kept in step inside the same transaction as the rows it indexes.
    var searchIndex: any SearchIndexing { get }
}

extension SQLSession {
    public func row(_ sql: SQL) throws -> SQLRow? { try rows(sql).first }

    /// The first column of the first row as text, or nil when there is no row or it is NULL.
    public func string(_ sql: SQL) throws -> String? {
        guard let row = try row(sql) else { return nil }
        return switch try row.value(at: 0) {
        case .null: nil
        case .text(let text): text
        default: throw StoreError.unreadable("\(sql): not text")
        }
    }

    public func strings(_ sql: SQL) throws -> [String] {
        try rows(sql).map { row in
            guard case .text(let text) = try row.value(at: 0) else { throw StoreError.unreadable("\(sql): not text") }
            return text
        }
    }

    /// The first column of the first row as an integer, or nil when there is no row or it is NULL.
    public func int(_ sql: SQL) throws -> Int? {
        guard let row = try row(sql) else { return nil }
        return switch try row.value(at: 0) {
        case .null: nil
        case .integer(let number): Int(exactly: number)
        case .bool(let flag): flag ? 1 : 0
        default: throw StoreError.unreadable("\(sql): not an integer")
        }
    }

    public func exists(_ sql: SQL) throws -> Bool { try row(sql) != nil }
}

/// Keeps the engine's full-text index in step with entries and memos (FTS5 on SQLite, a token table on PostgreSQL:
/// what genuinely differs stays with each engine).
public protocol SearchIndexing: Sendable {
    /// Indexes an entry again (or removes it when the row is gone).
    func refresh(_ session: any SQLSession, entry: EntryID) throws
    /// Indexes a memo again (or removes it when the row is gone).
    func refresh(_ session: any SQLSession, memo: MemoID) throws
    /// Indexes many entries again at once (an import's, those a trash restores): what `refresh(_:entry:)` of each
    /// would do, in fewer statements where the engine gains by it.
    func refresh(_ session: any SQLSession, entries: [EntryID]) throws
}

extension SearchIndexing {
    public func refresh(_ session: any SQLSession, entries: [EntryID]) throws {
        for entry in entries { try refresh(session, entry: entry) }
    }
}

/// A database the stores run their transactions on, whichever engine holds it.
public protocol StoreDatabase: Sendable {
    var clock: Clock { get }
    /// The field-encryption key for sensitive columns.
    var cipher: FieldCipher { get }

    /// A read: one consistent snapshot.
    @discardableResult
    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T

    /// A write: one transaction, all or nothing; on PostgreSQL serializable and retried from the start when it
    /// conflicts with another. With `rollingBack`, every write is undone at the end (an import's dry run).
    @discardableResult
    func write<T: Sendable>(rollingBack: Bool, _ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T

    /// A write of many rows at once (an import): `write`, with the engine given room to keep the whole
    /// transaction's changes in memory where that spares it work.
    @discardableResult
    func bulkWrite<T: Sendable>(rollingBack: Bool, _ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T
}

extension StoreDatabase {
    @discardableResult
    public func bulkWrite<T: Sendable>(rollingBack: Bool, _ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await write(rollingBack: rollingBack, body)
    }
}

extension StoreDatabase {
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await write(rollingBack: false, body)
    }
}

/// The few places the two engines' SQL differs, each said once.
public enum SQLDialect: Sendable {
    case sqlite
    case postgres

    /// `column` as a value no index is looked up by: SQLite's unary `+`. SQLite keeps no statistics unless asked, and
    /// without them takes `familyId = ?` for a rare value; in a data folder where one family's rows are the whole table,
    /// a statement that should start from a short list of ids must not start from the family (docs/performance.md).
    /// PostgreSQL keeps statistics and plans by them.
    public func unindexed(_ column: String) -> SQL {
        switch self {
        case .sqlite: "+\(raw: column)"
        case .postgres: "\(raw: column)"
        }
    }

    /// `column` equal to `value` without regard to ASCII case: SQLite's `NOCASE`, PostgreSQL's `lower()` on both sides
    /// with the argument in the columns' "C" collation (in the database's own, `lower` folds `Ö` too, which NOCASE
    /// does not, and a name with a capital beyond ASCII would not be found). The unique indexes are built the same way.
    public func equalsIgnoringCase(_ column: String, _ value: String) -> SQL {
        switch self {
        case .sqlite: "\(raw: column) = \(value) COLLATE NOCASE"
        case .postgres: "lower(\(raw: column)) = lower(CAST(\(value) AS text) COLLATE \"C\")"
        }
    }

    /// An `ORDER BY` term that ignores ASCII case, as `equalsIgnoringCase` compares.
    public func ignoringCase(_ column: String) -> SQL {
        switch self {
        case .sqlite: "\(raw: column) COLLATE NOCASE"
        case .postgres: "lower(\(raw: column))"
        }
    }

    /// After a `SELECT … LIMIT` that claims rows: on PostgreSQL the rows of `table` are locked, and rows another
    /// server is claiming right now are skipped, not waited for; SQLite has one writer, so nothing is needed.
    public func lockSkippingLocked(_ table: String) -> SQL {
        switch self {
        case .sqlite: ""
        case .postgres: "FOR UPDATE OF \(raw: table) SKIP LOCKED"
        }
    }

    /// After a `SELECT` of a row about to be changed: on PostgreSQL a second writer's transaction waits here and then
    /// sees the first one's change; SQLite's one writer already does.
    public var lockingRows: SQL {
        switch self {
        case .sqlite: ""
        case .postgres: "FOR UPDATE"
        }
    }

    /// A small non-negative integer column as text of at least two digits ("03"), so that text order is number order.
    public func twoDigits(_ column: String) -> String {
        switch self {
        case .sqlite: "printf('%02d', \(column))"
        case .postgres: "lpad(\(column)::text, 2, '0')"
        }
    }
}
