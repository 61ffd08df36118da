import Logging
import Persistence
import ServiceLifecycle

/// Keeps SQLite's full-text index in one piece (`DiaryEngine.tidySearchIndex`): checked half a minute after the server
/// starts (a diary written an entry at a time arrives in many pieces) and then every hour. Entries whose coordinates
/// name a place they were written without (before the place data could name it: a country abroad until the tenth
/// session) get it, and are found by it (`EntryStore.fillPlaceRegions`): at start, so that a diary upgraded is found
/// by its places at once, and then on every round.
public struct SearchIndexUpkeep: Service {
    let database: any DiaryEngine
    let logger: Logger
    let first: Duration
    let every: Duration

    public init(database: any DiaryEngine, logger: Logger, first: Duration = .seconds(30), every: Duration = .seconds(3600)) {
        self.database = database
        self.logger = logger
        self.first = first
        self.every = every
    }

    public func run() async throws {
        let (database, logger) = (database, logger)
        @Sendable func fillPlaces() async throws {
            let named = try await database.stores.entries.fillPlaceRegions()
            if named > 0 { logger.info("entries given the place their coordinates name", metadata: ["entries": "\(named)"]) }
        }
        do {
            try await fillPlaces()
        } catch {
            logger.warning("naming the places of entries failed; tried again at the next turn", metadata: ["error": "\(error)"])
        }
        await periodically(every: every, first: first, "merging the search index", logger: logger) {
            try await fillPlaces()
            if try await database.tidySearchIndex() { logger.info("search index merged into one segment") }
        }
    }
}
