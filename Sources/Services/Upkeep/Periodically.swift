import Logging
import ServiceLifecycle

/// Runs `work` every `interval` until the server shuts down, the first time `first` after it starts (by default one
/// interval: what start does itself needs no second run at once); a failure is logged as `what` and tried again at
/// the next turn. The hourly services (`PhotoSweeper`, `StatisticsUpkeep`, `SearchIndexUpkeep`) are this loop around
/// their one call.
func periodically(
    every interval: Duration, first: Duration? = nil, _ what: String, logger: Logger,
    _ work: @escaping @Sendable () async throws -> Void
) async {
    await cancelWhenGracefulShutdown {
        var wait = first ?? interval
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: wait)
            } catch {
                return
            }
            wait = interval
            do {
                try await work()
            } catch {
                logger.warning("\(what) failed; tried again at the next turn", metadata: ["error": "\(error)"])
            }
        }
    }
}
