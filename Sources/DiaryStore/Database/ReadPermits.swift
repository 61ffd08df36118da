import Synchronization

/// A count of permits that a task waits for without holding a thread: how many readers the long reads may hold at
/// once (`DiaryDatabase.reading`), so that the short reads of pages, which wait for a reader on the thread they run
/// on, always find one that only another short read holds (issue 66: a backup, a book, a snapshot and two imports held
/// all five readers, and a page's read then held one of the task pool's threads — on a one-core server, all of them).
final class ReadPermits: Sendable {
    private struct State {
        var available: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    init(_ count: Int) { state = Mutex(State(available: max(1, count))) }

    /// Waits (without a thread) for a permit.
    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                guard state.available > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.available -= 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    /// Gives a permit back: to the longest waiter, or to the count.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.available += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }

    /// Runs `body` holding a permit.
    func holding<T>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }
}
