import Dispatch
import Foundation
import GRDB
import Testing

@testable import DiaryStore

/// A store's short read runs on the calling thread and waits there when every reader connection is busy; the long
/// reads (`reading`) must then still give their readers back without a thread of the task pool.
@Suite struct ReadTests {
    /// Every reader is held by a long read while more short reads than the task pool has threads wait for one: once the
    /// long reads end, every read finishes. (With GRDB's `async` read, which gives its reader back only from the task
    /// pool, this waited for ever.)
    @Test func shortReadsWaitingForEveryReaderDoNotStopTheLongReadsGivingThemBack() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-reads-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try DiaryDatabase(folder: folder)
        defer { database.close() }
        let readers = database.writer.configuration.maximumReaderCount
        let (started, gate, finished) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        for _ in 0..<readers {
            Task.detached {
                _ = try await database.reading { db in
                    started.signal()
                    gate.wait()
                    return try Int.fetchOne(db, sql: "SELECT 1")
                }
                finished.signal()
            }
        }
        for _ in 0..<readers { try #require(started.wait(timeout: .now() + 30) == .success, "a long read never began") }
        // More short reads than the task pool has threads: each holds one while it waits for a reader.
        let short = 2 * ProcessInfo.processInfo.activeProcessorCount + 2
        for _ in 0..<short {
            Task.detached {
                _ = try database.readingHere { db in try Int.fetchOne(db, sql: "SELECT 1") }
                finished.signal()
            }
        }
        Thread.sleep(forTimeInterval: 0.3)
        for _ in 0..<readers { gate.signal() }
        for index in 0..<(readers + short) where finished.wait(timeout: .now() + 30) != .success {
            // The task pool is stuck, and with it the test runner's reporting: the process stops, saying why.
            fatalError("read \(index + 1) of \(readers + short) never finished: the reads are stuck")
        }
    }
}
