import Logging
import Persistence
import ServiceLifecycle

/// Keeps the database planner's statistics in step with the diary (`DiaryEngine.refreshStatistics`) every hour (a
/// SQLite database is checked as it opens too), so a diary that grows from a few entries to thousands, or arrives by restore or
/// import, is planned for what it is. Each check counts the entries; the statistics are gathered again only when
/// they are missing or far off.
public struct StatisticsUpkeep: Service {
    let database: any DiaryEngine
    let logger: Logger
    let every: Duration

    public init(database: any DiaryEngine, logger: Logger, every: Duration = .seconds(3600)) {
        self.database = database
        self.logger = logger
        self.every = every
    }

    public func run() async throws {
        let (database, logger) = (database, logger)
        await periodically(every: every, "gathering planner statistics", logger: logger) {
            if try await database.refreshStatistics() { logger.info("planner statistics gathered") }
        }
    }
}
