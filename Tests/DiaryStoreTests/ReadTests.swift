import Dispatch
import Foundation
import GRDB
import Synchronization
import Testing

@testable import DiaryStore

/// A store's short read runs on the calling thread and waits there for a reader; the long reads (`reading`) hold at
/// most all readers but `readersForShortReads`, so a short read never waits for a long one (issue 66: a backup, a book,
/// a snapshot and two imports holding every reader stalled a one-core server's whole task pool behind one page).
@Suite struct ReadTests {
    /// More long reads than there are readers, each held open, while more short reads than the task pool has threads
    /// run: every short read finishes with every long read still held — by construction, not by how soon they end.
    /// (Before, the short reads waited, holding the pool's threads, until a long read ended; the watchdog, on a thread
    /// of its own, stops a stuck process saying so.)
    @Test func shortReadsFinishWhileLongReadsHoldEveryReaderTheyMay() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-reads-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try DiaryDatabase(folder: folder)
        defer { database.close() }
        let readers = database.writer.configuration.maximumReaderCount
        let long = readers + 2
        let mayHold = readers - DiaryDatabase.readersForShortReads
        let short = 2 * ProcessInfo.processInfo.activeProcessorCount + 2
        let (started, finished, shortFinished) = (Count(), Count(), Count())
        let gate = DispatchSemaphore(value: 0)
        let watchdog = DispatchWorkItem {
            // The task pool is stuck, and with it the test runner's reporting: the process stops, saying why.
            fatalError("\(shortFinished.value) of \(short) short reads finished in two minutes: the reads are stuck")
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        defer { watchdog.cancel() }
        for _ in 0..<long {
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
        while started.value < mayHold { try await Task.sleep(for: .milliseconds(5)) }
        // More short reads than the task pool has threads, with every long read that may start holding its reader.
        for _ in 0..<short {
            Task.detached {
                _ = try database.readingHere { db in try Int.fetchOne(db, sql: "SELECT 1") }
                shortFinished.add()
            }
        }
        while shortFinished.value < short { try await Task.sleep(for: .milliseconds(5)) }
        #expect(started.value == mayHold, "long reads beyond their share of the readers started")
        #expect(finished.value == 0)
        // Now the long reads end, told from outside the task pool; those that waited for a permit run after them.
        for _ in 0..<long { gate.signal() }
        while finished.value < long { try await Task.sleep(for: .milliseconds(5)) }
        #expect(started.value == long)
    }

    /// A count the reads' threads add to and the test reads.
    final class Count: Sendable {
        private let count = Atomic(0)
        var value: Int { count.load(ordering: .relaxed) }
        func add() { count.add(1, ordering: .relaxed) }
    }
}
