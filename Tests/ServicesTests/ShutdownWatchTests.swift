import Logging
import ServiceLifecycle
import Synchronization
import Testing

@testable import Services

@Suite struct ShutdownWatchTests {
    /// Giving up is far enough out that a starved stop of a service that did stop is never taken for a stuck one (a
    /// loaded test run has left tasks without a thread for 30 s); only the test of giving up gives up sooner.
    static let timing = ShutdownWatch.Timing(patience: .milliseconds(200), cancelAfter: .milliseconds(600), giveUpAfter: .seconds(600))
    static let givingUp = ShutdownWatch.Timing(patience: .milliseconds(200), cancelAfter: .milliseconds(600), giveUpAfter: .seconds(3))

    /// What was logged, and what the watch gave up on.
    final class Seen: LogHandler, @unchecked Sendable {
        let messages = Mutex<[String]>([])
        let gaveUp = Mutex<[String]?>(nil)
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            guard event.level >= .notice else { return }  // not the service group's own debug lines
            let fields = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            messages.withLock { $0.append(([event.message.description] + fields).joined(separator: " ")) }
        }

        func watch(_ timing: ShutdownWatch.Timing = ShutdownWatchTests.timing) -> ShutdownWatch {
            ShutdownWatch(timing: timing, logger: Logger(label: "test", factory: { _ in self })) { names in
                self.gaveUp.withLock { $0 = names }
            }
        }
    }

    /// Runs until cancelled, or until asked to stop when `hearsStop`; never ends at all when `stuck` until `release`.
    final class Worker: Service, Sendable {
        let hearsStop: Bool
        let stuck: Bool
        let started = Mutex(false)
        let gate = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let released = Mutex(false)

        init(hearsStop: Bool, stuck: Bool = false) {
            self.hearsStop = hearsStop
            self.stuck = stuck
        }

        func run() async throws {
            started.withLock { $0 = true }
            if stuck {
                // Cancellation does not reach it: a wait nobody answers.
                await withCheckedContinuation { continuation in
                    let now = released.withLock { released in
                        if !released { gate.withLock { $0 = continuation } }
                        return released
                    }
                    if now { continuation.resume() }
                }
            } else if hearsStop {
                try? await gracefulShutdown()
            } else {
                try? await Task.sleep(for: .seconds(3600))
            }
        }

        func release() {
            released.withLock { $0 = true }
            gate.withLock { $0 }?.resume()
        }
    }

    /// Waits for `condition` (a loaded machine's test run can starve these tasks for seconds: no test here bounds a
    /// time from above).
    func eventually(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("not within a minute: \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Runs `worker` as `serve` runs its web server, asks the group to stop once it runs, and returns how long the stop
    /// took; `meanwhile` runs after the stop is asked for (a stuck worker is let go there).
    func stop(
        _ worker: Worker, watchedBy seen: Seen, timing: ShutdownWatch.Timing = Self.timing, meanwhile: () async throws -> Void = {}
    ) async throws -> Duration {
        let group = seen.watch(timing).group(running: worker, signals: [])
        let running = Task { try await group.run() }
        try await eventually("the worker starts") { worker.started.withLock { $0 } }
        let clock = ContinuousClock()
        let start = clock.now
        await group.triggerGracefulShutdown()
        try await meanwhile()
        try await running.value
        return clock.now - start
    }

    var warnings: (Seen) -> [String] { { seen in seen.messages.withLock { $0 } } }

    @Test func aServiceThatStopsWhenAskedEndsTheGroupAndIsNotGivenUpOn() async throws {
        let seen = Seen()
        let watch = seen.watch()
        let worker = Worker(hearsStop: true)
        let group = watch.group(running: worker, signals: [])
        let running = Task { try await group.run() }
        try await eventually("the worker starts") { worker.started.withLock { $0 } }
        #expect(watch.stillRunning().notYet == ["web server"])
        await group.triggerGracefulShutdown()
        try await running.value
        // Nothing runs any more: the watch, when it looks, finds nothing to give up on.
        #expect(watch.stillRunning() == ([], []))
        #expect(seen.gaveUp.withLock { $0 } == nil)
        #expect(!warnings(seen).contains { $0.hasPrefix("did not stop") })
    }

    @Test func aServiceStillRunningIsNamedWhileTheStopWaits() async throws {
        let seen = Seen()
        let worker = Worker(hearsStop: false, stuck: true)
        _ = try await stop(worker, watchedBy: seen) {
            try await eventually("the notice") { !warnings(seen).isEmpty }
            worker.release()
        }
        let first = try #require(warnings(seen).first)
        #expect(first.hasPrefix("stopping: still waiting") && first.contains("for=web server"), "\(first)")
    }

    @Test func aServiceThatDoesNotHearTheStopIsCancelled() async throws {
        let seen = Seen()
        let took = try await stop(Worker(hearsStop: false), watchedBy: seen)
        #expect(took >= Self.timing.cancelAfter)
        #expect(seen.gaveUp.withLock { $0 } == nil)
    }

    @Test func aServiceThatNotEvenCancellationEndsIsGivenUpOnAndNamed() async throws {
        let seen = Seen()
        let worker = Worker(hearsStop: false, stuck: true)
        let took = try await stop(worker, watchedBy: seen, timing: Self.givingUp) {
            try await eventually("giving up") { seen.gaveUp.withLock { $0 } != nil }
            worker.release()
        }
        #expect(took >= Self.givingUp.giveUpAfter)
        #expect(seen.gaveUp.withLock { $0 } == ["web server"])
        let last = try #require(warnings(seen).last)
        #expect(last.hasPrefix("did not stop within") && last.contains("waiting for=web server"), "\(last)")
    }

    @Test func theServicesOfTheWebServerAreNamedWhileTheyRun() async throws {
        let seen = Seen()
        let watch = seen.watch()
        let inner = Worker(hearsStop: false)
        let group = ServiceGroup(configuration: .init(services: [watch.watched(inner)], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        try await eventually("the worker starts") { inner.started.withLock { $0 } }
        #expect(watch.stillRunning().notYet == ["Worker"])
        await group.triggerGracefulShutdown()
        try await eventually("the worker is asked to stop") { watch.stillRunning().asked == ["Worker"] }
        running.cancel()
        _ = try? await running.value
        #expect(watch.stillRunning() == ([], []))
    }
}
