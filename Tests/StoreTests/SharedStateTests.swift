import Diary
import DiaryStore
import Foundation
import Synchronization
import Testing

/// What several servers on one database share through it: thumbnail jobs claimed once (and again when a claim runs
/// out), and wrong passwords counted for every server.
@Suite struct SharedStateTests {
    final class FakeTime: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        func advance(seconds: Double) { now.withLock { $0 += seconds } }
    }

    func photo(_ fixture: StoreFixture, _ n: Int) -> Photo {
        Photo(
            familyID: fixture.family, sha256: String(repeating: String(n % 10), count: 63) + String(n / 10), mimeType: "image/jpeg",
            byteCount: 1, width: 1, height: 1, createdAt: Date(timeIntervalSince1970: 1_800_000_000 + Double(n)))
    }

    @Test(arguments: Engine.available) func aJobIsClaimedOnceAndAgainWhenItsClaimRunsOut(engine: Engine) async throws {
        let time = FakeTime()
        let fixture = try await StoreFixture(engine, clock: Clock { time.now.withLock { $0 } })
        let photos = fixture.stores.photos
        let stored = try await photos.add([photo(fixture, 1), photo(fixture, 2)], family: fixture.family, entry: nil)
        let first = try await photos.claimThumbnailJobs(worker: "a", lease: 60, limit: 1)
        let second = try await photos.claimThumbnailJobs(worker: "b", lease: 60, limit: 5)
        #expect(first.map(\.id) == [stored[0].id] && second.map(\.id) == [stored[1].id])
        #expect(try await photos.claimThumbnailJobs(worker: "c", lease: 60, limit: 5).isEmpty)
        // b finishes; a dies: its claim runs out and c takes the job.
        try await photos.markThumbnails(stored[1].id, ready: true)
        time.advance(seconds: 61)
        #expect(try await photos.claimThumbnailJobs(worker: "c", lease: 60, limit: 5).map(\.id) == [stored[0].id])
        try await photos.markThumbnails(stored[0].id, ready: false)
        time.advance(seconds: 61)
        #expect(try await photos.claimThumbnailJobs(worker: "d", lease: 60, limit: 5).isEmpty)
        #expect(try await photos.get(family: fixture.family, id: stored[1].id).thumbnailsReady)
    }

    @Test(arguments: Engine.available) func workersRacingForJobsNeverShareOne(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let photos = fixture.stores.photos
        _ = try await photos.add((1...12).map { photo(fixture, $0) }, family: fixture.family, entry: nil)
        let claimed = try await withThrowingTaskGroup(of: [PhotoID].self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var mine: [PhotoID] = []
                    while true {
                        let jobs = try await photos.claimThumbnailJobs(worker: "w\(worker)", lease: 600, limit: 1)
                        guard !jobs.isEmpty else { return mine }
                        mine += jobs.map(\.id)
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(claimed.count == 12 && Set(claimed).count == 12)
    }

    @Test(arguments: Engine.available) func wrongPasswordsAreCountedByKeyWithinTheWindow(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let failures = fixture.stores.loginFailures
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for second in 0..<3 {
            try await failures.recordFailure(keys: ["account:mina", "address:a"], at: start.addingTimeInterval(Double(second)))
        }
        try await failures.recordFailure(keys: ["address:b"], at: start)
        let recent = try await failures.failures(keys: ["account:mina", "address:b", "address:z"], since: start.addingTimeInterval(1))
        #expect(recent["account:mina"]?.count == 2 && recent["address:b"] == nil && recent["address:z"] == nil)
        try await failures.clear(key: "account:mina")
        #expect(try await failures.failures(keys: ["account:mina", "address:a"], since: start)["account:mina"] == nil)
        #expect(try await failures.failures(keys: ["address:a"], since: start)["address:a"]?.count == 2)
    }
}
