import Synchronization

/// How many SQL statements a piece of work sent to the database, transaction framing included (`BEGIN`, `COMMIT`):
/// what a page costs, whatever the engine. `saessak serve --count-statements` reports each request's count in a
/// response header, and the query-count tests hold every page and list route to its budget with it (an N+1 shows as a
/// count that grows with the entries on the page).
///
/// Bound to a task with `StatementCount.$current.withValue(count) { … }`. The engines run statements on threads of
/// their own (GRDB's queues, PostgreSQL's thread pool), where a task's values are not seen: they hand those threads
/// the transaction's body `carrying` the task's count, bound again there for the transaction's duration.
public final class StatementCount: Sendable {
    @TaskLocal public static var current: StatementCount?

    private let count = Atomic<Int>(0)

    public init() {}

    /// The statements counted so far.
    public var total: Int { count.load(ordering: .relaxed) }

    /// One more statement (or `statements` more).
    public func add(_ statements: Int = 1) {
        count.add(statements, ordering: .relaxed)
    }

    /// `body`, to run on another thread, with the calling task's count bound there while it runs.
    public static func carrying<Argument, Result>(
        _ body: @escaping @Sendable (Argument) throws -> Result
    ) -> @Sendable (Argument) throws -> Result {
        let count = current
        return { argument in try $current.withValue(count) { try body(argument) } }
    }
}
