import Diary
import Synchronization
import Testing

@testable import PostgresStore

/// The wait for a connection ends at the deadline or at the caller's cancellation even when the wait itself ignores
/// both (a lease postgres-nio never completed, after PostgreSQL went away and came back, held a server's stop); a
/// connection that arrives after that runs nothing. No test here bounds a time from above (loaded runs starve tasks).
@Suite struct ConnectionDeadlineTests {
    /// A wait for a connection that neither ends nor hears cancellation until `release`; then says whether the work
    /// may run its body. What it does is told in `events`, in order.
    final class StuckLease: Sendable {
        enum Event: Equatable { case waiting, ranBody(Bool) }
        let events: AsyncStream<Event>
        private let tell: AsyncStream<Event>.Continuation
        private let gate = Mutex<(released: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

        init() { (events, tell) = AsyncStream.makeStream(of: Event.self) }

        func work(_ lease: ConnectionDeadline.Lease) async throws -> Int {
            tell.yield(.waiting)
            await withCheckedContinuation { continuation in
                let now = gate.withLock { gate in
                    if !gate.released { gate.waiter = continuation }
                    return gate.released
                }
                if now { continuation.resume() }
            }
            let connected = lease.connected()
            tell.yield(.ranBody(connected))
            guard connected else { throw CancellationError() }
            return 42
        }

        func release() {
            let waiter = gate.withLock { gate in
                gate.released = true
                defer { gate.waiter = nil }
                return gate.waiter
            }
            waiter?.resume()
        }
    }

    @Test func aWaitThatNeverEndsIsAnsweredUnavailableAtTheDeadlineAndALateConnectionRunsNothing() async throws {
        let stuck = StuckLease()
        let started = ContinuousClock.now
        await #expect(throws: StoreError.unavailable("no connection to the database within 0.2 seconds")) {
            try await ConnectionDeadline(timeout: .milliseconds(200)).run(stuck.work)
        }
        #expect(ContinuousClock.now - started >= .milliseconds(200))
        stuck.release()
        var events = stuck.events.makeAsyncIterator()
        #expect(await events.next() == .waiting)
        #expect(await events.next() == .ranBody(false))
    }

    @Test func aCancelledCallerGoesAtOnceThoughTheWaitIgnoresCancellation() async throws {
        let stuck = StuckLease()
        var events = stuck.events.makeAsyncIterator()
        let caller = Task { try await ConnectionDeadline(timeout: .seconds(600)).run(stuck.work) }
        #expect(await events.next() == .waiting)
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        stuck.release()
        #expect(await events.next() == .ranBody(false))
    }

    @Test func onceConnectedTheWorkTakesAsLongAsItTakes() async throws {
        let answer = try await ConnectionDeadline(timeout: .milliseconds(50)).run { lease in
            guard lease.connected() else { return 0 }
            try await Task.sleep(for: .milliseconds(300))
            return 7
        }
        #expect(answer == 7)
    }

    @Test func theWorksOwnErrorIsTheCallers() async throws {
        struct Refused: Error, Equatable {}
        await #expect(throws: Refused()) {
            try await ConnectionDeadline(timeout: .seconds(600)).run { lease -> Int in
                _ = lease.connected()
                throw Refused()
            }
        }
    }
}
