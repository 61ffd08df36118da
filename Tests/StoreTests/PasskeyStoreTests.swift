import Diary
import Foundation
import Persistence
import Synchronization
import Testing

/// Passkeys and their challenges, on both engines: a credential id belongs to one passkey on the server, a challenge
/// is taken once (and only for its ceremony, member and time), the counter moves by compare-and-set so that of two
/// sign-ins with one assertion one wins, and a member's last way to sign in stays.
@Suite struct PasskeyStoreTests {
    final class FakeTime: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        func advance(seconds: Double) { now.withLock { $0 += seconds } }
    }

    @Test(arguments: Engine.available) func passkeysAreAddedListedUsedAndRemoved(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let store = fixture.stores.passkeys
        let kim = try await fixture.stores.accounts.user(named: "kim")
        let lee = try await fixture.stores.accounts.createUser(username: "lee", passwordHash: "$2b$12$x", familyName: "이씨네").0.id
        let phone = try await store.add(user: kim, name: "내 휴대폰", credentialID: Data([1, 2, 3]), publicKey: Data([9]), signCount: 0)
        let laptop = try await store.add(user: kim, name: "노트북", credentialID: Data([4]), publicKey: Data([8]), signCount: 7)
        await #expect(throws: StoreError.self) {
            try await store.add(user: lee, name: "남의 것", credentialID: Data([1, 2, 3]), publicKey: Data([9]), signCount: 0)
        }
        #expect(try await store.passkeys(of: kim).map(\.name) == ["내 휴대폰", "노트북"])
        #expect(try await store.passkeys(of: lee).isEmpty)
        #expect(try await store.credentialIDs(of: kim) == [Data([1, 2, 3]), Data([4])])
        let found = try #require(try await store.passkey(credentialID: Data([4])))
        #expect(found.passkey == laptop && found.publicKey == Data([8]) && found.signCount == 7)
        #expect(try await store.passkey(credentialID: Data([5])) == nil)

        // Two sign-ins with the same counter: the first moves it, the second finds it moved.
        #expect(try await store.recordUse(laptop.id, signCount: 8, previous: 7))
        #expect(try await !store.recordUse(laptop.id, signCount: 8, previous: 7))
        #expect(try await store.passkeys(of: kim).last?.lastUsedAt != nil)

        // Kim's password is "x" (no bcrypt hash): her last passkey stays; Lee cannot remove Kim's.
        await #expect(throws: StoreError.notFound(kind: "passkey", id: phone.id.description)) { try await store.remove(phone.id, of: lee) }
        try await store.remove(phone.id, of: kim)
        await #expect(throws: StoreError.self) { try await store.remove(laptop.id, of: kim) }
        #expect(try await store.passkeys(of: kim).map(\.id) == [laptop.id])
        let leeKey = try await store.add(user: lee, name: "폰", credentialID: Data([6]), publicKey: Data([7]), signCount: 0)
        try await store.remove(leeKey.id, of: lee)  // Lee has a password
    }

    @Test(arguments: Engine.available) func aChallengeIsTakenOnceForItsCeremonyMemberAndTime(engine: Engine) async throws {
        let time = FakeTime()
        let fixture = try await StoreFixture(engine, clock: Clock { time.now.withLock { $0 } })
        let store = fixture.stores.passkeys
        let kim = try await fixture.stores.accounts.user(named: "kim")
        let other = try await fixture.stores.accounts.createUser(username: "lee", passwordHash: "x", familyName: "이씨네").0.id

        let signIn = try await store.issueChallenge(for: .signIn, user: nil)
        #expect(signIn.count == 32)
        #expect(try await !store.takeChallenge(signIn, for: .register, user: nil))
        #expect(try await store.takeChallenge(signIn, for: .signIn, user: nil))
        #expect(try await !store.takeChallenge(signIn, for: .signIn, user: nil))

        let adding = try await store.issueChallenge(for: .register, user: kim)
        #expect(try await !store.takeChallenge(adding, for: .register, user: other))
        #expect(try await !store.takeChallenge(adding, for: .register, user: nil))
        #expect(try await store.takeChallenge(adding, for: .register, user: kim))

        let late = try await store.issueChallenge(for: .signIn, user: nil)
        time.advance(seconds: Passkey.challengeLifetime + 1)
        #expect(try await !store.takeChallenge(late, for: .signIn, user: nil))
        #expect(try await !store.takeChallenge(Data(repeating: 0, count: 32), for: .signIn, user: nil))
    }

    @Test(arguments: Engine.available) func aMemberHasAtMostTwentyPasskeys(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let store = fixture.stores.passkeys
        let kim = try await fixture.stores.accounts.user(named: "kim")
        for index in 0..<Passkey.maxPerUser {
            _ = try await store.add(user: kim, name: "키 \(index)", credentialID: Data([UInt8(index), 1]), publicKey: Data([1]), signCount: 0)
        }
        await #expect(throws: StoreError.self) {
            try await store.add(user: kim, name: "하나 더", credentialID: Data([99]), publicKey: Data([1]), signCount: 0)
        }
    }
}
