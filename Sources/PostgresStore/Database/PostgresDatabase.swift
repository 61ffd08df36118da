import Diary
import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import Persistence
import PostgresNIO
import Secrets
import Synchronization

/// The family diary in PostgreSQL: a pool of connections to one database, migrated on open. Several Saessak servers
/// may open the same database at once; everything they share lives in it.
///
/// Writes run in `SERIALIZABLE` transactions, retried when PostgreSQL reports a conflict with another transaction:
/// each write sees the database as if it were alone, as SQLite's single writer does, so a check followed by an insert
/// (a username still free, an invitation not yet used) holds across servers too.
public final class PostgresDatabase: Sendable {
    let client: PostgresClient
    private let runner: Task<Void, Never>
    /// Where the stores' synchronous transactions run (`PostgresSession`): one thread per connection the pool may
    /// open, so a transaction never waits for a thread while holding a connection.
    let threads: NIOThreadPool
    public let cipher: FieldCipher
    public let clock: Clock
    let logger: Logger
    /// How long a statement may wait for a connection or an answer before the caller hears the database is unavailable.
    let timeout: Duration
    let schema: String?
    let settingsDescription: String

    /// Connects to `settings` and runs the migrations this database still lacks (one server at a time: the first takes
    /// an advisory lock, the others wait for it and find nothing left to do).
    public static func open(
        _ settings: PostgresSettings, cipher: FieldCipher, clock: Clock = .live, logger: Logger = Logger(label: "saessak.postgres"),
        timeout: Duration = .seconds(15), create: Bool = true
    ) async throws -> PostgresDatabase {
        try await probe(settings, logger: logger)
        let database = PostgresDatabase(settings, cipher: cipher, clock: clock, logger: logger, timeout: timeout)
        do {
            if !create, try await !database.holdsSaessak() {
                throw Unreachable(description: "no Saessak data in \(settings): start with 'saessak admin create-user --database …'")
            }
            try await database.migrate()
        } catch {
            database.close()
            throw error
        }
        return database
    }

    private init(_ settings: PostgresSettings, cipher: FieldCipher, clock: Clock, logger: Logger, timeout: Duration) {
        var configuration = PostgresClient.Configuration(
            host: settings.host, port: settings.port, username: settings.user, password: settings.password,
            database: settings.database, tls: settings.tls.client)
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.maximumConnections = settings.maximumConnections
        if let schema = settings.schema {
            configuration.options.additionalStartupParameters = [("search_path", schema)]
        }
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        runner = Task { await client.run() }
        threads = NIOThreadPool(numberOfThreads: max(settings.maximumConnections, 1))
        threads.start()
        self.cipher = cipher
        self.clock = clock
        self.logger = logger
        self.timeout = timeout
        schema = settings.schema
        settingsDescription = settings.description
    }

    /// Why the database cannot be used, said plainly (a wrong password, a missing database, nothing listening).
    public struct Unreachable: Error, CustomStringConvertible {
        public let description: String
    }

    /// What a command tells its operator of an error PostgreSQL answered: its message and SQLSTATE (postgres-nio's
    /// own description of it says only that details are withheld). Nil for any other error. Not for the server's log:
    /// a message can quote a value.
    public static func operatorMessage(_ error: any Error) -> String? {
        guard let error = error as? PSQLError, let message = error.serverInfo?[.message] else { return nil }
        let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
        return "PostgreSQL refused a statement: \(message)\(state)"
    }

    /// One connection, made and closed before the pool starts: the pool would retry a wrong password or a missing
    /// database quietly forever, and a command should say at once what is wrong.
    static func probe(_ settings: PostgresSettings, logger: Logger) async throws {
        let tls: PostgresConnection.Configuration.TLS
        do {
            switch settings.tls {
            case .disable: tls = .disable
            case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
        } catch {
            throw Unreachable(description: "cannot set up TLS for \(settings): \(error)")
        }
        var configuration = PostgresConnection.Configuration(
            host: settings.host, port: settings.port, username: settings.user, password: settings.password,
            database: settings.database, tls: tls)
        configuration.options.connectTimeout = .seconds(10)
        do {
            let connection = try await PostgresConnection.connect(
                on: PostgresClient.defaultEventLoopGroup.any(), configuration: configuration, id: 0, logger: logger
            ).get()
            try await connection.close()
        } catch let error as PSQLError {
            let reason = error.serverInfo?[.message] ?? error.underlying.map { "\($0)" } ?? "\(error.code)"
            throw Unreachable(description: "cannot connect to \(settings): \(reason)")
        } catch {
            throw Unreachable(description: "cannot connect to \(settings): \(error)")
        }
    }

    /// Closes the pool's connections and lets its threads go.
    public func close() {
        runner.cancel()
        threads.shutdownGracefully { _ in }
    }

    deinit { close() }

    /// A write: one serializable transaction, retried from the start (up to 20 times) when it conflicts with another.
    @discardableResult
    public func writeAsync<T: Sendable>(_ body: @escaping @Sendable (PostgresTransaction) async throws -> T) async throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await transaction("BEGIN ISOLATION LEVEL SERIALIZABLE", body)
            } catch let error as PSQLError where Self.isRetryable(error) && attempt < 20 {
                try await Task.sleep(for: .milliseconds(Int.random(in: 1...(5 * attempt))))
            }
        }
    }

    /// A read: one consistent snapshot. Its `BEGIN` and `COMMIT` are sent without waiting for their answers (the
    /// connection runs its statements in order; a read-only transaction has nothing to lose at its `COMMIT`): a page
    /// makes several reads, and each wait is a thread hand-off on the event loop and another back (the PostgreSQL
    /// home page: 27 statements in 9 reads, and half its server's CPU in the kernel switching threads).
    public func readAsync<T: Sendable>(_ body: @escaping @Sendable (PostgresTransaction) async throws -> T) async throws -> T {
        try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", waiting: false, body)
    }

    /// Runs `body` in a transaction that a dry run rolls back (an import's preview).
    func writeAsync<T: Sendable>(rollingBack: Bool, _ body: @escaping @Sendable (PostgresTransaction) async throws -> T) async throws -> T {
        guard rollingBack else { return try await writeAsync(body) }
        return try await transaction("BEGIN ISOLATION LEVEL SERIALIZABLE", commit: false, body)
    }

    /// `waiting`: whether `BEGIN` and its end are waited for (a read's are sent and not: see `readAsync`).
    func transaction<T: Sendable>(
        _ begin: String, commit: Bool = true, waiting: Bool = true, _ body: @escaping @Sendable (PostgresTransaction) async throws -> T
    ) async throws -> T {
        let (logger, threads) = (logger, threads)
        return try await withConnectionDeadline { lease in
            try await self.client.withConnection { connection in
                // The caller has gone (its deadline or its cancellation): the connection goes back unused.
                guard lease.connected() else { throw CancellationError() }
                let transaction = PostgresTransaction(connection: connection, logger: logger, threads: threads)
                let began = Mutex<(any Error)?>(nil)
                if waiting {
                    try await transaction.execute(begin)
                } else {
                    transaction.send(begin) { error in began.withLock { $0 = error } }
                }
                do {
                    let result = try await body(transaction)
                    // Unwaited, `BEGIN` was answered before the body's first statement was (a body of no statement
                    // cannot tell, and needs no snapshot).
                    if let error = began.withLock({ $0 }) { throw error }
                    let end = commit ? "COMMIT" : "ROLLBACK"
                    if waiting { try await transaction.execute(end) } else { transaction.send(end) { _ in } }
                    return result
                } catch {
                    _ = try? await transaction.execute("ROLLBACK")
                    throw Self.storeError(error)
                }
            }
        }
    }

    /// Runs `operation` under `ConnectionDeadline`: `StoreError.unavailable` when it has not got a connection within
    /// `timeout`, or when its connection breaks (at once).
    private func withConnectionDeadline<T: Sendable>(
        _ operation: @escaping @Sendable (ConnectionDeadline.Lease) async throws -> T
    ) async throws -> T {
        do {
            return try await ConnectionDeadline(timeout: timeout).run(operation)
        } catch let error as PSQLError where Self.isConnectionFailure(error) {
            logger.warning("database unavailable", metadata: ["code": "\(error.code)"])
            throw StoreError.unavailable("the database cannot be reached")
        }
    }

    /// Serialization failures and deadlocks: the transaction did nothing and can run again.
    static func isRetryable(_ error: PSQLError) -> Bool {
        guard let state = error.serverInfo?[.sqlState] else { return false }
        return state == "40001" || state == "40P01"
    }

    static func isConnectionFailure(_ error: PSQLError) -> Bool {
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed, .uncleanShutdown: true
        default: false
        }
    }

    /// A constraint the database enforced, as the store error SQLite's stores give for the same row; other errors as they are.
    static func storeError(_ error: any Error) -> any Error {
        guard let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] else { return error }
        let constraint = error.serverInfo?[.constraintName] ?? "a constraint"
        switch state {
        case "23505": return StoreError.conflict(field: constraint, message: "is already taken")
        case "23503": return StoreError.conflict(field: constraint, message: "refers to a row that does not exist")
        case "23514", "23502", "22001": return StoreError.conflict(field: constraint, message: "refused by the database")
        // disk_full: PostgreSQL rolled the transaction back.
        case "53100": return StorageFull("the database")
        default: return error
        }
    }

    // MARK: Migrations

    /// The migrations this database has, oldest first.
    public func appliedMigrations() async throws -> [String] {
        try await readAsync { transaction in
            try await transaction.strings("SELECT name FROM saessakMigrations ORDER BY position")
        }
    }

    /// Whether Saessak has made its tables here.
    func holdsSaessak() async throws -> Bool {
        try await readAsync { db in try await db.string("SELECT to_regclass('saessakMigrations')::text") != nil }
    }

    private func migrate() async throws {
        try await writeAsync { [schema] transaction in
            // One migrating server at a time; the lock goes with the transaction.
            try await transaction.execute("SELECT pg_advisory_xact_lock(5935073)")
            if let schema {
                // A plain name (PostgresSettings checked it): safe to write into the statement.
                try await transaction.execute("CREATE SCHEMA IF NOT EXISTS \(schema)")
            }
            try await transaction.execute(
                """
                CREATE TABLE IF NOT EXISTS saessakMigrations (
                    position integer PRIMARY KEY, name text NOT NULL UNIQUE, appliedAt text NOT NULL)
                """)
            let applied = try await transaction.strings("SELECT name FROM saessakMigrations ORDER BY position")
            let known = PostgresSchema.migrations.map(\.name)
            guard applied.count <= known.count, Array(known.prefix(applied.count)) == applied else {
                throw StoreError.conflict(
                    field: "database",
                    message: "it was migrated by another version of Saessak (\(applied.last ?? "?")): use that version or a newer one")
            }
            for (position, migration) in PostgresSchema.migrations.enumerated().dropFirst(applied.count) {
                for statement in PostgresSchema.statements(migration.sql) { try await transaction.execute(statement) }
                try await transaction.execute(
                    "INSERT INTO saessakMigrations (position, name, appliedAt) VALUES (?, ?, ?)",
                    [position + 1, migration.name, self.clock.now().stored])
            }
        }
    }
}

extension PostgresSchema {
    /// A migration's statements, one by one (the extended protocol takes one statement per query): split at the
    /// semicolons outside quotes, `$$` function bodies and `--` comments.
    static func statements(_ sql: String) -> [String] {
        var statements: [String] = []
        var current = ""
        var quote: Character?
        var comment = false
        var previous: Character = " "
        for character in sql {
            if comment {
                if character == "\n" { comment = false; current.append(character) }
                continue
            }
            if let open = quote {
                current.append(character)
                if open == "$" {
                    // A function body between `$$`s: closed by the next `$$`.
                    if character == "$", previous == "$" {
                        quote = nil
                        previous = " "
                        continue
                    }
                } else if character == open {
                    quote = nil
                }
            } else if character == "$", previous == "$" {
                quote = "$"
                current.append(character)
                previous = " "
                continue
            } else if character == "-", previous == "-" {
                current.removeLast()
                comment = true
            } else if character == "'" || character == "\"" {
                quote = character
                current.append(character)
            } else if character == ";" {
                statements.append(current)
                current = ""
            } else {
                current.append(character)
            }
            previous = character
        }
        statements.append(current)
        return statements.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }
}
