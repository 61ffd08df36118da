import Diary
import Foundation
import Persistence
import Secrets
import Synchronization
import Testing

import DiaryStore

/// Sessions end after 14 idle days or 60 days in any case, and a sign-in replaces the previous cookie.
@Suite struct SessionStoreTests {
    final class FakeTime: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        func advance(days: Double) { now.withLock { $0 += days * 86_400 } }
    }


    @Test(arguments: Engine.available) func idleAndAbsoluteExpiry(engine: Engine) async throws {
        let time = FakeTime()
        let fixture = try await StoreFixture(engine, clock: Clock { time.now.withLock { $0 } })
        let (user, family) = try await fixture.stores.accounts.createUser(username: "mom", passwordHash: "x", familyName: "우리집")
        let sessions = fixture.stores.sessions
        let (cookie, session) = try await sessions.start(user: user.id)
        #expect(session.membership?.familyID == family.id && session.membership?.role == .owner)
        // Used every 13 days, it lives until the absolute end.
        for _ in 0..<4 {
            time.advance(days: 13)
            #expect(try await sessions.session(forCookie: cookie) != nil)
        }
        time.advance(days: 9)  // 61 days after the start
        #expect(try await sessions.session(forCookie: cookie) == nil)

        let (idle, _) = try await sessions.start(user: user.id)
        time.advance(days: 14.01)
        #expect(try await sessions.session(forCookie: idle) == nil)

        let (first, _) = try await sessions.start(user: user.id)
        let (second, _) = try await sessions.start(user: user.id, replacing: first)
        #expect(try await sessions.session(forCookie: first) == nil)
        #expect(try await sessions.session(forCookie: second) != nil)
        #expect(try await sessions.session(forCookie: "ssk_unknown") == nil)
    }
}
