import Diary
import Foundation
import Persistence
import Synchronization
import Testing

/// The family's record of who did what on both engines: lines newest first by member, kind and month, paged
/// without gaps; a year kept by an injected clock; roles changed and members taken out in the same transaction as
/// their line (never the last owner); a sign-in from a browser not seen before.
@Suite struct ActivityStoreTests {
    final class FakeTime: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))  // 2027-01-15 08:00 UTC
        func advance(days: Double) { now.withLock { $0 += days * 86_400 } }
    }

    @Test(arguments: Engine.available) func linesAreListedNewestFirstByMemberKindAndMonth(engine: Engine) async throws {
        let time = FakeTime()
        let fixture = try await StoreFixture(engine, clock: Clock { time.now.withLock { $0 } })
        let (activity, family) = (fixture.stores.activity, fixture.family)
        let kim = try await fixture.stores.accounts.user(named: "kim")
        let grandma = try await fixture.grandmaJoins()
        for number in 1...7 {
            try await activity.record(
                family: family, actor: number.isMultiple(of: 2) ? grandma : kim, action: .created, kind: number <= 5 ? .entry : .memo,
                subjectID: "\(number)", label: "일기 \(number)", detail: "")
            time.advance(days: 10)
        }
        let other = try await fixture.otherFamily()
        try await activity.record(family: other, actor: nil, action: .created, kind: .entry, subjectID: nil, label: "남의 집", detail: "")

        let all = try await activity.list(family: family, filter: ActivityFilter(), after: nil, limit: 50).items
        #expect(all.map(\.label) == (1...7).reversed().map { "일기 \($0)" })
        #expect(all.first?.actorName == "kim" && all[1].actorName == "grandma")
        let theirs = try await activity.list(family: family, filter: ActivityFilter(actor: grandma), after: nil, limit: 50).items
        #expect(theirs.map(\.subjectID) == ["6", "4", "2"])
        let byName = try await activity.list(family: family, filter: ActivityFilter(actorName: "GRANDMA"), after: nil, limit: 50).items
        #expect(byName == theirs)
        let memos = try await activity.list(family: family, filter: ActivityFilter(kind: .memo), after: nil, limit: 50).items
        #expect(memos.map(\.subjectID) == ["7", "6"])
        // 2027-01-15 + 10-day steps: January has lines 1 and 2 (in Korean time), February 3, 4 and 5.
        let february = try await activity.list(family: family, filter: ActivityFilter(month: try ActivityMonth("2027-02")), after: nil, limit: 50)
        #expect(february.items.map(\.subjectID) == ["5", "4", "3"])

        var seen: [String] = []
        var cursor: PageCursor?
        repeat {
            let page = try await activity.list(family: family, filter: ActivityFilter(), after: cursor, limit: 3)
            seen += page.items.map(\.label)
            cursor = page.next
        } while cursor != nil
        #expect(seen == all.map(\.label))
    }

    @Test(arguments: Engine.available) func aYearIsKept(engine: Engine) async throws {
        let time = FakeTime()
        let fixture = try await StoreFixture(engine, clock: Clock { time.now.withLock { $0 } })
        let activity = fixture.stores.activity
        try await activity.record(family: fixture.family, actor: nil, action: .edited, kind: .entry, subjectID: nil, label: "old", detail: "")
        time.advance(days: 200)
        try await activity.record(family: fixture.family, actor: nil, action: .edited, kind: .entry, subjectID: nil, label: "new", detail: "")
        time.advance(days: 165)
        #expect(try await activity.sweep() == 0)
        time.advance(days: 1)
        #expect(try await activity.sweep() == 1)
        #expect(try await activity.list(family: fixture.family, filter: ActivityFilter(), after: nil, limit: 50).items.map(\.label) == ["new"])
    }

    @Test(arguments: Engine.available) func rolesChangeAndMembersLeaveWithTheirLineNeverTheLastOwner(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let (accounts, family) = (fixture.stores.accounts, fixture.family)
        let kim = try await accounts.user(named: "kim")
        let grandma = try await fixture.grandmaJoins()
        let (token, _) = try await accounts.createToken(username: "grandma", familyName: "김씨네")

        await #expect(throws: StoreError.self) { try await accounts.setRole(family: family, username: "kim", role: .editor, by: kim) }
        await #expect(throws: StoreError.self) { try await accounts.removeMember(family: family, username: "kim", by: kim) }
        await #expect(throws: StoreError.self) { try await accounts.setRole(family: family, username: "nobody", role: .editor, by: kim) }
        #expect(try await accounts.setRole(family: family, username: "Grandma", role: .editor, by: kim) == .viewer)
        #expect(try await accounts.membership(forToken: token)?.role == .editor)
        try await accounts.removeMember(family: family, username: "grandma", by: kim)
        #expect(try await accounts.membership(forToken: token) == nil)
        #expect(try await accounts.members(family: family).map(\.username) == ["kim"])

        let lines = try await fixture.stores.activity.list(family: family, filter: ActivityFilter(kind: .member), after: nil, limit: 50).items
        #expect(lines.map(\.action) == [.removed, .roleChanged])
        #expect(lines.allSatisfy { $0.actor == kim && $0.subjectID == grandma.description && $0.label == "grandma" })
        #expect(lines.last?.detail == "viewer>editor")
    }

    @Test(arguments: Engine.available) func aBrowserNotSeenBeforeIsANewDevice(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let sessions = fixture.stores.sessions
        let kim = try await fixture.stores.accounts.user(named: "kim")
        let (cookie, isNew) = try await sessions.recognise(device: nil, user: kim, label: "Chrome · Android")
        #expect(isNew)
        let again = try await sessions.recognise(device: cookie, user: kim, label: "Chrome · Android")
        #expect(again.cookie == cookie && !again.isNew)
        // Another user's cookie, or one never given out, is no device of kim's.
        let grandma = try await fixture.grandmaJoins()
        #expect(try await sessions.recognise(device: cookie, user: grandma, label: "x").isNew)
        #expect(try await sessions.recognise(device: "made up", user: kim, label: "Firefox · Windows").isNew)
        let lines = try await fixture.stores.activity.list(family: fixture.family, filter: ActivityFilter(actor: kim), after: nil, limit: 50).items
        #expect(lines.map(\.label) == ["Firefox · Windows", "Chrome · Android"] && lines.allSatisfy { $0.action == .signedIn })
        // The cookie itself is never stored.
        #expect(try await fixture.count("SELECT count(*) FROM devices WHERE label LIKE '%\(cookie)%'") == 0)
    }
}
