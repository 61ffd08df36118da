import Diary
import Synchronization

/// Runs work that first waits for a connection, and answers `StoreError.unavailable` when it has not got one within
/// `timeout` (the database is down or unreachable, and the pool keeps trying): the caller answers 503 instead of
/// hanging. Once connected, the work takes as long as it takes (a restore writes a whole diary in one transaction).
///
/// The work runs in a task of its own that the caller does not wait for once the deadline or its own cancellation has
/// answered: a task group waits for every child, so a wait for a connection that never ends and ignores cancellation
/// (seen after PostgreSQL went away and came back under a running server) would hold the caller — and a server's
/// stop — for ever. A connection that arrives after that answer is handed back unused (`Lease.connected` is false):
/// the body never runs for a caller that has gone.
struct ConnectionDeadline: Sendable {
    let timeout: Duration

    /// Whether the work got its connection first, or the caller went first (deadline or cancellation).
    final class Lease: Sendable {
        private enum State { case waiting, connected, abandoned }
        private let state = Mutex(State.waiting)

        /// Called by the work once it holds a connection: true if it is to run its body, false if the caller has gone.
        func connected() -> Bool {
            state.withLock { state in
                guard state == .waiting else { return false }
                state = .connected
                return true
            }
        }

        /// Called for the caller: true if it may go without the work (no connection yet), false if the work runs.
        fileprivate func abandon() -> Bool {
            state.withLock { state in
                guard state == .waiting else { return false }
                state = .abandoned
                return true
            }
        }
    }

    func run<T: Sendable>(_ work: @escaping @Sendable (Lease) async throws -> T) async throws -> T {
        let lease = Lease()
        let answer = Answer<T>()
        let running = Task {
            do {
                answer.give(.success(try await work(lease)))
            } catch {
                answer.give(.failure(error))
            }
        }
        let timeout = timeout
        let timer = Task {
            guard (try? await Task.sleep(for: timeout)) != nil, lease.abandon() else { return }
            answer.give(.failure(StoreError.unavailable("no connection to the database within \(timeout)")))
            running.cancel()
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await answer.value()
        } onCancel: {
            running.cancel()
            if lease.abandon() { answer.give(.failure(CancellationError())) }
        }
    }

    /// One answer, given once (later ones are dropped) and awaited once.
    private final class Answer<T: Sendable>: Sendable {
        private enum State {
            case empty
            case awaited(CheckedContinuation<T, any Error>)
            case given(Result<T, any Error>)
            case taken
        }
        private let state = Mutex(State.empty)

        func give(_ result: Result<T, any Error>) {
            let waiter = state.withLock { state -> CheckedContinuation<T, any Error>? in
                switch state {
                case .empty:
                    state = .given(result)
                    return nil
                case .awaited(let continuation):
                    state = .taken
                    return continuation
                case .given, .taken:
                    return nil
                }
            }
            waiter?.resume(with: result)
        }

        func value() async throws -> T {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<T, any Error>? in
                    switch state {
                    case .given(let result):
                        state = .taken
                        return result
                    case .empty:
                        state = .awaited(continuation)
                        return nil
                    case .awaited, .taken:
                        return .failure(StoreError.unavailable("the database did not answer"))
                    }
                }
                if let ready { continuation.resume(with: ready) }
            }
        }
    }
}
