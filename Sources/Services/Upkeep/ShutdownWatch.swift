import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals

/// Sees that a stop ends. SIGTERM or SIGINT asks every service of `serve` to finish (the web server first, its open
/// requests answered, then the workers and upkeep); a service still running after `Timing.patience` is named in the
/// log, whatever still runs at `Timing.cancelAfter` is cancelled, and a process not done by `Timing.giveUpAfter` says
/// what it waits on and exits. So a home server's stop, or a package upgrade's restart, never hangs on a database that
/// went away and came back or on a connection nobody closes. Exiting then loses nothing: every write is a transaction
/// and every file is written atomically (what the kill -9 tests hold).
public final class ShutdownWatch: Sendable {
    public struct Timing: Sendable {
        public var patience: Duration
        public var cancelAfter: Duration
        public var giveUpAfter: Duration

        /// Inside systemd's 90 seconds for a stop, and the blackbox tests' 30.
        public static let standard = Timing(patience: .seconds(5), cancelAfter: .seconds(15), giveUpAfter: .seconds(25))

        public init(patience: Duration, cancelAfter: Duration, giveUpAfter: Duration) {
            self.patience = patience
            self.cancelAfter = cancelAfter
            self.giveUpAfter = giveUpAfter
        }
    }

    private struct Running {
        var count = 0
        var askedToStop = false
    }

    private let timing: Timing
    private let logger: Logger
    private let giveUp: @Sendable ([String]) -> Void
    private let running = Mutex<[String: Running]>([:])
    private let stopping = Mutex(false)

    /// `giveUp` is given the services still running; by default it ends the process at once.
    public init(timing: Timing = .standard, logger: Logger, giveUp: @escaping @Sendable ([String]) -> Void = ShutdownWatch.exitNow) {
        self.timing = timing
        self.logger = logger
        self.giveUp = giveUp
    }

    /// `_exit`, not `exit`: another thread may hold a lock an exit handler wants.
    public static let exitNow: @Sendable ([String]) -> Void = { _ in
        fflush(nil)
        _exit(1)
    }

    /// `service`, seen starting, being asked to stop and ending; named by its type unless `name` is given.
    public func watched(_ service: any Service, named name: String? = nil) -> any Service {
        Watched(service: service, name: name ?? String(describing: type(of: service)), watch: self)
    }

    /// The group `serve` runs: `app` (the web server with the services it runs inside), stopped by `signals`, cancelled
    /// `Timing.cancelAfter` into a stop.
    public func group(running app: any Service, signals: [UnixSignal]) -> ServiceGroup {
        var configuration = ServiceGroupConfiguration(
            services: [.init(service: watched(app, named: "web server"))], gracefulShutdownSignals: signals, logger: logger)
        configuration.maximumGracefulShutdownDuration = timing.cancelAfter
        return ServiceGroup(configuration: configuration)
    }

    /// What still runs: those asked to stop, and those not asked yet (they are asked in turn, each after the one before
    /// it has finished).
    func stillRunning() -> (asked: [String], notYet: [String]) {
        running.withLock { running in
            let names = running.filter { $0.value.count > 0 }
            return (names.filter(\.value.askedToStop).keys.sorted(), names.filter { !$0.value.askedToStop }.keys.sorted())
        }
    }

    fileprivate func started(_ name: String) { running.withLock { $0[name, default: Running()].count += 1 } }

    fileprivate func finished(_ name: String) { running.withLock { $0[name, default: Running()].count -= 1 } }

    fileprivate func askedToStop(_ name: String) {
        running.withLock { $0[name, default: Running()].askedToStop = true }
        let first = stopping.withLock { stopping in
            defer { stopping = true }
            return !stopping
        }
        if first { Task { await self.watchTheStop() } }
    }

    private func watchTheStop() async {
        try? await Task.sleep(for: timing.patience)
        var (asked, notYet) = stillRunning()
        if !asked.isEmpty {
            logger.notice(
                "stopping: still waiting",
                metadata: ["for": "\(asked.joined(separator: ", "))", "not yet asked": "\(notYet.joined(separator: ", "))"])
        }
        try? await Task.sleep(for: timing.giveUpAfter - timing.patience)
        (asked, notYet) = stillRunning()
        guard !asked.isEmpty || !notYet.isEmpty else { return }
        logger.error(
            "did not stop within \(timing.giveUpAfter); exiting (nothing is lost: writes are transactions)",
            metadata: ["waiting for": "\(asked.joined(separator: ", "))", "not yet asked": "\(notYet.joined(separator: ", "))"])
        giveUp(asked + notYet)
    }
}

private struct Watched: Service, CustomStringConvertible {
    let service: any Service
    let name: String
    let watch: ShutdownWatch

    var description: String { name }

    func run() async throws {
        watch.started(name)
        defer { watch.finished(name) }
        let (watch, name) = (watch, name)
        try await withGracefulShutdownHandler {
            try await service.run()
        } onGracefulShutdown: {
            watch.askedToStop(name)
        }
    }
}
