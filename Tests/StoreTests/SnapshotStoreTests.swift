import Diary
import Foundation
import Persistence
import Synchronization
import Testing

/// The snapshot runs on both engines: one claim a period between servers, a failed period tried again only after an
/// hour, a run whose server died taken over when its lease runs out, a manual run waiting only for a running one.
@Suite struct SnapshotStoreTests {
    final class FakeTime: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        func advance(seconds: Double) { now.withLock { $0 += seconds } }
    }

    @Test(arguments: Engine.available) func onePeriodOneSnapshotBetweenServers(engine: Engine) async throws {
        let time = FakeTime()
        let fixture = try await StoreFixture(engine, clock: Clock { time.now.withLock { $0 } })
        let store = fixture.stores.snapshots
        // Eight servers ask at once: one gets it.
        let claims = try await withThrowingTaskGroup(of: SnapshotRun?.self) { group in
            for worker in 0..<8 {
                group.addTask { try await store.claim(period: 7, worker: "server-\(worker)", lease: 600, retryAfter: 3600) }
            }
            return try await group.reduce(into: [SnapshotRun]()) { if let run = $1 { $0.append(run) } }
        }
        #expect(claims.count == 1)
        let run = try #require(claims.first)
        #expect(run.status == .running && run.period == 7)
        #expect(try await store.claim(period: nil, worker: "cli", lease: 600, retryAfter: 3600) == nil)  // one at a time
        try await store.succeed(run.id, snapshotID: "abcd1234", bytesAdded: 2048, filesNew: 3, verified: "4/30")
        #expect(try await store.claim(period: 7, worker: "late", lease: 600, retryAfter: 3600) == nil)  // taken already
        let good = try #require(try await store.latest().lastGood)
        #expect(good.snapshotID == "abcd1234" && good.bytesAdded == 2048 && good.filesNew == 3 && good.verified == "4/30")

        // The next period fails; it is tried again an hour later, not before.
        let second = try #require(try await store.claim(period: 8, worker: "a", lease: 600, retryAfter: 3600))
        try await store.fail(second.id, error: "the snapshot target is full (no space left on device)", reason: .full)
        time.advance(seconds: 1800)
        #expect(try await store.claim(period: 8, worker: "b", lease: 600, retryAfter: 3600) == nil)
        time.advance(seconds: 1801)
        let third = try #require(try await store.claim(period: 8, worker: "b", lease: 600, retryAfter: 3600))
        #expect(try await store.recent(limit: 10).first { $0.id == second.id }?.reason == .full)

        // Its server dies: once the lease is out, another takes the period over and the dead run is marked.
        #expect(try await store.claim(period: 8, worker: "c", lease: 600, retryAfter: 0) == nil)
        time.advance(seconds: 601)
        let fourth = try #require(try await store.claim(period: 8, worker: "c", lease: 600, retryAfter: 0))
        let dead = try #require(try await store.recent(limit: 10).first { $0.id == third.id })
        #expect(dead.status == .failed && dead.reason == .stopped)
        // A renewed lease keeps a long run.
        time.advance(seconds: 500)
        try await store.renew(fourth.id, lease: 600)
        time.advance(seconds: 500)
        #expect(try await store.claim(period: 9, worker: "d", lease: 600, retryAfter: 0) == nil)
        let latest = try await store.latest()
        #expect(latest.lastGood?.id == run.id && latest.last?.id == fourth.id)
    }
}
