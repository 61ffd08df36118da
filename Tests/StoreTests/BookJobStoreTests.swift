import Diary
import Foundation
import KoreanCalendar
import Persistence
import Synchronization
import Testing

/// The books made in the background, on both engines: a family's limit of books waiting, one claim a job between
/// servers, a job whose server died taken again when its lease runs out (and given up after its last attempt),
/// progress and the finished file's facts, the kept days, and no family seeing another's.
@Suite struct BookJobStoreTests {
    final class FakeTime: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        func advance(seconds: Double) { now.withLock { $0 += seconds } }
    }

    static func request(_ child: ChildID?, format: BookRequest.Format = .pdf) throws -> BookRequest {
        BookRequest(
            childID: child, first: try SolarDate(year: 2026, month: 1, day: 1), last: try SolarDate(year: 2026, month: 12, day: 31), year: 2026,
            format: format, size: "a5", bleed: true, reactions: false, language: "ko")
    }

    @Test(arguments: Engine.available) func aJobIsMadeOnceAndKeptForItsDays(engine: Engine) async throws {
        let time = FakeTime()
        let fixture = try await StoreFixture(engine, clock: Clock { time.now.withLock { $0 } })
        let store = fixture.stores.books
        let child = try await fixture.child()
        let limits = BookJob.Limits(making: 2, kept: 1)
        let first = try await store.create(family: fixture.family, requestedBy: nil, request: try Self.request(child.id), limits: limits).get()
        let asked = try Self.request(child.id)
        #expect(first.status == .queued && first.request == asked && first.attempts == 0)
        time.advance(seconds: 1)
        let second = try await store.create(family: fixture.family, requestedBy: nil, request: try Self.request(nil, format: .html), limits: limits).get()
        #expect(try await store.create(family: fixture.family, requestedBy: nil, request: try Self.request(nil), limits: limits) == .failure(.busy(2)))
        #expect(try await store.list(family: fixture.family).map(\.id) == [second.id, first.id])
        let other = try await fixture.otherFamily()
        #expect(try await store.job(family: other, id: first.id) == nil)
        #expect(try await store.list(family: other).isEmpty)
        #expect(try await store.delete(family: other, id: first.id) == false)

        // Six servers ask at once: the oldest job goes to one of them, the next to another, the rest get none.
        let claims = try await withThrowingTaskGroup(of: BookJob?.self) { group in
            for worker in 0..<6 {
                group.addTask { try await store.claim(worker: "server-\(worker)", lease: 15, maxAttempts: 3) }
            }
            return try await group.reduce(into: [BookJob]()) { if let job = $1 { $0.append(job) } }
        }
        #expect(Set(claims.map(\.id)) == [first.id, second.id] && claims.count == 2)
        let mine = try #require(claims.first { $0.id == first.id })
        let worker = try #require(try await fixture.workerOf(first.id))
        #expect(mine.status == .running && mine.attempts == 1)
        #expect(try await store.renew(first.id, worker: worker, lease: 15, progress: 40))
        #expect(try await store.renew(first.id, worker: "someone else", lease: 15, progress: 90) == false)
        #expect(try await store.job(family: fixture.family, id: first.id)?.progress == 40)
        #expect(try await store.finish(first.id, worker: worker, byteCount: 1234, pages: 12, expiresAt: time.now.withLock { $0 } + 3 * 86400))
        let made = try #require(try await store.job(family: fixture.family, id: first.id))
        #expect(made.status == .ready && made.progress == 100 && made.byteCount == 1234 && made.pages == 12)
        // One being made, one kept: a family keeps at most `kept` finished books (issue 66: eight in a row left eight).
        #expect(try await store.create(family: fixture.family, requestedBy: nil, request: try Self.request(nil), limits: limits) == .failure(.full(1)))

        // The second's server dies: the job is taken again once the lease is out, and given up after three attempts.
        time.advance(seconds: 16)
        let again = try #require(try await store.claim(worker: "b", lease: 15, maxAttempts: 3))
        #expect(again.id == second.id && again.attempts == 2)
        time.advance(seconds: 16)
        #expect(try await store.claim(worker: "c", lease: 15, maxAttempts: 3)?.attempts == 3)
        time.advance(seconds: 16)
        #expect(try await store.claim(worker: "d", lease: 15, maxAttempts: 3) == nil)
        let given = try #require(try await store.job(family: fixture.family, id: second.id))
        #expect(given.status == .failed && given.error?.contains("stopped") == true)

        // Kept three days: then the rows go, and the caller deletes their files.
        time.advance(seconds: 2 * 86400)
        #expect(try await store.removeExpired(failedBefore: time.now.withLock { $0 } - 3 * 86400).isEmpty)
        time.advance(seconds: 86400 + 60)
        let gone = try await store.removeExpired(failedBefore: time.now.withLock { $0 } - 3 * 86400)
        #expect(Set(gone.map(\.id)) == [first.id, second.id])
        #expect(try await store.list(family: fixture.family).isEmpty)
    }
}

extension StoreFixture {
    /// The worker holding a job's claim.
    func workerOf(_ id: BookJobID) async throws -> String? {
        try await database.read { db in try db.string("SELECT worker FROM bookJobs WHERE id = \(id)") }
    }
}
