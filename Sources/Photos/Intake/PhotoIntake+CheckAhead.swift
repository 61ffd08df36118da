import Diary
import Foundation

extension PhotoIntake {
    /// A checking line: files are handed to it as they are staged and checked on a thread of its own meanwhile, so
    /// that reading an export (unzipping and hashing its photos, one core) and checking its photos (decoding, every
    /// core) share the machine instead of taking turns. Files are checked in the order handed, a chunk at a time,
    /// through `check(_:)`: the answers are those of one call with all of them. Staging stays the caller's (it
    /// touches only the intake's constants); everything else of the intake is the line's until `finish` returns.
    /// Every line is ended by `finish` or `abandon` (its thread waits for one of them).
    public func checkAhead(chunk: Int = 16) -> CheckAhead { CheckAhead(intake: self, chunk: chunk) }

    public final class CheckAhead: @unchecked Sendable {
        private let intake: PhotoIntake
        private let chunk: Int
        /// Guards everything below; signalled when files arrive, the line is closed, or the thread is done.
        private let condition = NSCondition()
        private var pending: [Staged] = []
        private var answers: [Result<Photo, PhotoError>] = []
        private var closed = false
        private var discarding = false
        private var done = false

        fileprivate init(intake: PhotoIntake, chunk: Int) {
            self.intake = intake
            self.chunk = max(1, chunk)
            let thread = Thread { [self] in run() }
            thread.stackSize = 8 << 20
            thread.start()
        }

        /// Hands a staged file to the line.
        public func add(_ staged: Staged) {
            condition.withLock {
                pending.append(staged)
                if pending.count >= chunk { condition.broadcast() }
            }
        }

        /// Waits for every file handed to be checked; the answers in the order handed.
        public func finish() -> [Result<Photo, PhotoError>] {
            close(discarding: false)
            return condition.withLock { answers }
        }

        /// Stops the line without checking what waits (reading failed); waits for the chunk being checked.
        public func abandon() { close(discarding: true) }

        private func close(discarding: Bool) {
            condition.lock()
            defer { condition.unlock() }
            closed = true
            self.discarding = self.discarding || discarding
            condition.broadcast()
            while !done { condition.wait() }
        }

        private func run() {
            while true {
                condition.lock()
                while pending.count < chunk && !closed { condition.wait() }
                let taken = discarding ? [] : Array(pending.prefix(chunk * 4))
                let dropped = discarding ? pending : []
                pending.removeFirst(discarding ? pending.count : taken.count)
                let last = closed && pending.isEmpty
                condition.unlock()
                dropped.forEach { $0.upload.abandon() }
                let checked = taken.isEmpty ? [] : intake.check(taken)
                intake.placeAhead()
                condition.lock()
                answers += checked
                if last {
                    done = true
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                condition.unlock()
            }
        }
    }
}
