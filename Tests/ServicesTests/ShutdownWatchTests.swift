import Logging
import ServiceLifecycle
import Synchronization
import Testing

@testable import Services

@Suite struct ShutdownWatchTests {
    static let timing = ShutdownWatch.Timing(patience: .milliseconds(200), cancelAfter: .milliseconds(600), giveUpAfter: .seconds(2))

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

        func watch() -> ShutdownWatch {
            ShutdownWatch(timing: ShutdownWatchTests.timing, logger: Logger(label: "test", factory: { _ in self })) { names in
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

    func stop(_ worker: Worker, watchedBy seen: Seen) async throws -> Duration {
        let group = seen.watch().group(running: worker, signals: [])
        let running = Task { try await group.run() }
        while !worker.started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        let clock = ContinuousClock()
        let start = clock.now
        await group.triggerGracefulShutdown()
        if worker.stuck {
            while seen.gaveUp.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(20)) }
            worker.release()
        }
        try await running.value
        return clock.now - start
    }

    @Test func aServiceThatStopsWhenAskedEndsTheGroupAtOnceAndNothingIsSaid() async throws {
        let seen = Seen()
        let took = try await stop(Worker(hearsStop: true), watchedBy: seen)
        #expect(took < .milliseconds(200))
        try await Task.sleep(for: Self.timing.giveUpAfter + .milliseconds(200))
        #expect(seen.messages.withLock { $0 }.isEmpty)
        #expect(seen.gaveUp.withLock { $0 } == nil)
    }

    @Test func aServiceThatDoesNotHearTheStopIsNamedThenCancelled() async throws {
        let seen = Seen()
        let took = try await stop(Worker(hearsStop: false), watchedBy: seen)
        #expect(took >= Self.timing.cancelAfter && took < Self.timing.giveUpAfter)
        let messages = seen.messages.withLock { $0 }
        #expect(messages.count == 1 && messages[0].hasPrefix("stopping: still waiting") && messages[0].contains("for=web server"), "\(messages)")
        try await Task.sleep(for: Self.timing.giveUpAfter)
        #expect(seen.gaveUp.withLock { $0 } == nil)
    }

    @Test func aServiceThatNotEvenCancellationEndsIsGivenUpOnAndNamed() async throws {
        let seen = Seen()
        let took = try await stop(Worker(hearsStop: false, stuck: true), watchedBy: seen)
        #expect(took >= Self.timing.giveUpAfter)
        #expect(seen.gaveUp.withLock { $0 } == ["web server"])
        let messages = seen.messages.withLock { $0 }
        #expect(messages.last?.hasPrefix("did not stop within") == true && messages.last?.contains("waiting for=web server") == true, "\(messages)")
    }

    @Test func theServicesOfTheWebServerAreNamedWhileTheyRun() async throws {
        let seen = Seen()
        let watch = seen.watch()
        let inner = Worker(hearsStop: false)
        let group = ServiceGroup(configuration: .init(services: [watch.watched(inner)], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        while !inner.started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(watch.stillRunning().notYet == ["Worker"])
        await group.triggerGracefulShutdown()
        try await Task.sleep(for: .milliseconds(50))
        #expect(watch.stillRunning().asked == ["Worker"])
        running.cancel()
        _ = try? await running.value
        #expect(watch.stillRunning() == ([], []))
    }
}
