import Diary
import DiaryStore
import Foundation
import Persistence
import Synchronization
import Testing

/// What several servers on one database share through it: thumbnail and rendition jobs claimed once (and again when
/// a claim runs out), and wrong passwords counted for every server.
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

    func clip(_ fixture: StoreFixture, _ n: Int, rendition: RenditionState) -> Photo {
        var clip = photo(fixture, n)
        clip.video = VideoFacts(durationMilliseconds: 23_456, videoCodec: "hevc", audioCodec: "aac", rendition: rendition)
        return clip
    }

    @Test(arguments: Engine.available) func aRenditionIsClaimedOnceRenewedWithProgressAndTakenOverWhenItLapses(engine: Engine) async throws {
        let time = FakeTime()
        let fixture = try await StoreFixture(engine, clock: Clock { time.now.withLock { $0 } })
        let photos = fixture.stores.photos
        let stored = try await photos.add(
            [photo(fixture, 1), clip(fixture, 2, rendition: .none), clip(fixture, 3, rendition: .pending), clip(fixture, 4, rendition: .pending)],
            family: fixture.family, entry: nil)
        #expect(stored[0].video == nil)
        #expect(stored[2].video == VideoFacts(durationMilliseconds: 23_456, videoCodec: "hevc", audioCodec: "aac", rendition: .pending))
        // The lists' lookup: only clips, only this family's.
        let videos = try await photos.videos(family: fixture.family, among: stored.map(\.id) + [PhotoID()])
        #expect(Set(videos.keys) == Set(stored[1...].map(\.id)))
        #expect(try await photos.videos(family: try await fixture.otherFamily(), among: stored.map(\.id)).isEmpty)

        let first = try #require(try await photos.claimRenditionJob(worker: "a", lease: 20))
        let second = try #require(try await photos.claimRenditionJob(worker: "b", lease: 20))
        #expect(first.id == stored[2].id && second.id == stored[3].id)
        #expect(try await photos.claimRenditionJob(worker: "c", lease: 20) == nil)
        // a works on and says how far it is; b's claim is not a's to renew.
        time.advance(seconds: 15)
        #expect(try await photos.renewRendition(first.id, worker: "a", lease: 20, progress: 42))
        #expect(try await !photos.renewRendition(second.id, worker: "a", lease: 20, progress: 99))
        #expect(try await photos.get(family: fixture.family, id: first.id).video?.renditionProgress == 42)
        // b dies: its claim lapses and c takes the job; b, back, cannot renew what is c's now.
        time.advance(seconds: 10)
        #expect(try await photos.claimRenditionJob(worker: "c", lease: 20)?.id == stored[3].id)
        #expect(try await !photos.renewRendition(second.id, worker: "b", lease: 20, progress: 50))
        try await photos.markRendition(first.id, ready: true)
        try await photos.markRendition(second.id, ready: false)
        let done = try await photos.get(family: fixture.family, id: first.id).video
        #expect(done?.rendition == .ready && done?.renditionProgress == nil)
        #expect(try await photos.get(family: fixture.family, id: second.id).video?.rendition == .failed)
        time.advance(seconds: 60)
        #expect(try await photos.claimRenditionJob(worker: "d", lease: 20) == nil)
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
        // A look at the last moments forgets nothing a longer look needs (the second step counts wrong codes over a
        // day, issue 66): the failure before the first look's start is still there for a look from `start`.
        #expect(try await failures.failures(keys: ["address:a"], since: start)["address:a"]?.count == 3)
        // What is a day older than any look is pruned.
        try await failures.recordFailure(keys: ["address:old"], at: start.addingTimeInterval(-3 * 86_400))
        _ = try await failures.failures(keys: ["address:a"], since: start)
        #expect(try await failures.failures(keys: ["address:old"], since: .distantPast)["address:old"] == nil)
    }
}
