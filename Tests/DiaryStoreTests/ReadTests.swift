import Dispatch
import Foundation
import GRDB
import Synchronization
import Testing

@testable import DiaryStore

/// A store's short read runs on the calling thread and waits there when every reader connection is busy; the long
/// reads (`reading`) must then still give their readers back without a thread of the task pool.
@Suite struct ReadTests {
    /// Every reader is held by a long read while more short reads than the task pool has threads wait for one: once the
    /// long reads end, every read finishes. (With GRDB's `async` read, which gives its reader back only from the task
    /// pool, the process stood still; the watchdog, on a thread of its own, stops it saying so.)
    @Test func shortReadsWaitingForEveryReaderDoNotStopTheLongReadsGivingThemBack() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-reads-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try DiaryDatabase(folder: folder)
        defer { database.close() }
        let readers = database.writer.configuration.maximumReaderCount
        let short = 2 * ProcessInfo.processInfo.activeProcessorCount + 2
        let (started, finished) = (Count(), Count())
        let gate = DispatchSemaphore(value: 0)
        let watchdog = DispatchWorkItem {
            // The task pool is stuck, and with it the test runner's reporting: the process stops, saying why.
            fatalError("\(finished.value) of \(readers + short) reads finished in two minutes: the reads are stuck")
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        defer { watchdog.cancel() }
        for _ in 0..<readers {
            Task.detached {
                _ = try await database.reading { db in
                    started.add()
                    gate.wait()
                    return try Int.fetchOne(db, sql: "SELECT 1")
                }
                finished.add()
            }
        }
        // Waiting without holding a thread: other suites run beside this one and need the pool to start these reads.
        while started.value < readers { try await Task.sleep(for: .milliseconds(5)) }
        // More short reads than the task pool has threads: each holds one while it waits for a reader.
        for _ in 0..<short {
            Task.detached {
                _ = try database.readingHere { db in try Int.fetchOne(db, sql: "SELECT 1") }
                finished.add()
            }
        }
        // The long reads end a moment later, told from outside the task pool.
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { for _ in 0..<readers { gate.signal() } }
        while finished.value < readers + short { try await Task.sleep(for: .milliseconds(5)) }
    }

    /// A count the reads' threads add to and the test reads.
    final class Count: Sendable {
        private let count = Atomic(0)
        var value: Int { count.load(ordering: .relaxed) }
        func add() { count.add(1, ordering: .relaxed) }
    }
}
