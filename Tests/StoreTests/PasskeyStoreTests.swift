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

    /// A passkey to store, as if checked.
    static func new(_ name: String, _ id: [UInt8], key: UInt8, count: Int64) -> NewPasskey {
        NewPasskey(name: name, credentialID: Data(id), userHandle: Data(repeating: 7, count: 16), publicKey: Data([key]), signCount: count)
    }

    @Test(arguments: Engine.available) func passkeysAreAddedListedUsedAndRemoved(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let store = fixture.stores.passkeys
        let kim = try await fixture.stores.accounts.user(named: "kim")
        let lee = try await fixture.stores.accounts.createUser(username: "lee", passwordHash: "$2b$12$x", familyName: "이씨네").0.id
        let phone = try await store.add(user: kim, Self.new("내 휴대폰", [1, 2, 3], key: 9, count: 0))
        let laptop = try await store.add(user: kim, Self.new("노트북", [4], key: 8, count: 7))
        await #expect(throws: StoreError.self) {
            try await store.add(user: lee, Self.new("남의 것", [1, 2, 3], key: 9, count: 0))
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
        let leeKey = try await store.add(user: lee, Self.new("폰", [6], key: 7, count: 0))
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
        #expect(try await store.takeChallenge(signIn, for: .register, user: nil) == nil)
        #expect(try await store.takeChallenge(signIn, for: .signIn, user: nil) == Data())
        #expect(try await store.takeChallenge(signIn, for: .signIn, user: nil) == nil)

        let adding = try await store.issueChallenge(for: .register, user: kim)
        #expect(try await store.takeChallenge(adding, for: .register, user: other) == nil)
        #expect(try await store.takeChallenge(adding, for: .register, user: nil) == nil)
        #expect(try await store.takeChallenge(adding, for: .register, user: kim) == Data())

        // An account made with a passkey: the challenge gives back the user handle it was issued with.
        let handle = Data(repeating: 0x5A, count: 16)
        let joining = try await store.issueChallenge(for: .signUp, user: nil, userHandle: handle)
        #expect(try await store.takeChallenge(joining, for: .signIn, user: nil) == nil)
        #expect(try await store.takeChallenge(joining, for: .signUp, user: nil) == handle)

        let late = try await store.issueChallenge(for: .signIn, user: nil)
        time.advance(seconds: Passkey.challengeLifetime + 1)
        #expect(try await store.takeChallenge(late, for: .signIn, user: nil) == nil)
        #expect(try await store.takeChallenge(Data(repeating: 0, count: 32), for: .signIn, user: nil) == nil)
    }

    @Test(arguments: Engine.available) func aMemberHasAtMostTwentyPasskeys(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let store = fixture.stores.passkeys
        let kim = try await fixture.stores.accounts.user(named: "kim")
        for index in 0..<Passkey.maxPerUser {
            _ = try await store.add(user: kim, Self.new("키 \(index)", [UInt8(index), 1], key: 1, count: 0))
        }
        await #expect(throws: StoreError.self) {
            try await store.add(user: kim, Self.new("하나 더", [99], key: 1, count: 0))
        }
    }
}

/// The second step's secret and codes, on both engines: sealed at rest, confirmed once, a step used once and only
/// forward, recovery codes once each, and all gone when it is turned off.
@Suite struct SecondStepStoreTests {
    @Test(arguments: Engine.available) func theSecondStepIsSetUpUsedAndTurnedOff(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let store = fixture.stores.secondSteps
        let kim = try await fixture.stores.accounts.user(named: "kim")
        #expect(try await store.secret(of: kim) == nil)
        try await store.begin(user: kim, secret: "FIRSTSECRET")
        try await store.begin(user: kim, secret: "SECONDSECRET")  // begun again before confirming: replaced
        let begun = try #require(try await store.secret(of: kim))
        #expect(begun.secret == "SECONDSECRET" && !begun.confirmed)
        #expect(try await !store.isConfirmed(kim))
        #expect(try await !store.use(user: kim, step: 10))  // not confirmed: no code works yet

        let digests = (0..<10).map { Data(repeating: UInt8($0), count: 32) }
        #expect(try await store.confirm(user: kim, step: 100, recoveryDigests: digests))
        #expect(try await !store.confirm(user: kim, step: 101, recoveryDigests: digests))
        #expect(try await store.isConfirmed(kim))
        await #expect(throws: StoreError.self) { try await store.begin(user: kim, secret: "THIRD") }

        #expect(try await !store.use(user: kim, step: 100))  // the step that confirmed it
        #expect(try await store.use(user: kim, step: 101))
        #expect(try await !store.use(user: kim, step: 101))
        #expect(try await !store.use(user: kim, step: 99))

        #expect(try await store.useRecoveryCode(user: kim, digest: digests[3]))
        #expect(try await !store.useRecoveryCode(user: kim, digest: digests[3]))
        #expect(try await !store.useRecoveryCode(user: kim, digest: Data(repeating: 0xEE, count: 32)))
        #expect(try await store.recoveryCodesLeft(of: kim) == 9)
        try await store.replaceRecoveryCodes(user: kim, digests: [Data(repeating: 0xAA, count: 32)])
        #expect(try await !store.useRecoveryCode(user: kim, digest: digests[4]))
        #expect(try await store.recoveryCodesLeft(of: kim) == 1)

        // Sealed at rest: the secret's text is not in the row.
        let sealed = try await fixture.database.read { db in try db.row("SELECT secretSealed FROM secondSteps")?.data("secretSealed") }
        #expect(sealed.map { !String(decoding: $0, as: UTF8.self).contains("SECONDSECRET") } == true)

        try await store.remove(user: kim)
        #expect(try await store.secret(of: kim) == nil)
        #expect(try await store.recoveryCodesLeft(of: kim) == 0)
    }
}
