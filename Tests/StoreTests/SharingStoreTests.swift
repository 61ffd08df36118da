import Diary
import Foundation
import KoreanCalendar
import Persistence
import Testing

/// Invitations, share links and calendar feeds on both engines: secrets work once shown and are never stored,
/// revocation is immediate, and one family never reaches another's.
@Suite struct SharingStoreTests {
    func owner(_ fixture: StoreFixture) async throws -> Membership {
        Membership(userID: try await fixture.stores.accounts.user(named: "kim"), familyID: fixture.family, role: .owner)
    }

    @Test(arguments: Engine.available) func anInvitationIsUsedOnceAndOnlyWhileOpen(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let sharing = fixture.stores.sharing
        let (token, invitation) = try await sharing.invite(by: try await owner(fixture), role: .viewer, days: 7)
        #expect(invitation.familyID == fixture.family && invitation.role == .viewer && invitation.acceptedAt == nil)
        #expect(invitation.expiresAt.timeIntervalSince(invitation.createdAt) == 7 * 86_400)
        #expect(try await sharing.invitations(family: fixture.family).map(\.id) == [invitation.id])
        let stored = try #require(try await fixture.data("SELECT digest FROM invitations"))
        #expect(stored.count == 32 && stored.range(of: Data(token.utf8)) == nil)

        let open = try #require(try await sharing.openInvitation(token: token))
        #expect(open.invitation.id == invitation.id && open.familyName == "김씨네")
        #expect(try await sharing.openInvitation(token: token + "x") == nil)

        let (grandma, membership) = try await sharing.accept(token: token, user: nil, newUser: (username: "halmeoni", passwordHash: "h"))
        #expect(membership == Membership(userID: grandma, familyID: fixture.family, role: .viewer))
        #expect(try await fixture.stores.accounts.credentials(username: "HALMEONI")?.user == grandma)
        #expect(try await sharing.openInvitation(token: token) == nil)
        await #expect(throws: StoreError.self) { try await sharing.accept(token: token, user: grandma, newUser: nil) }
        #expect(try await sharing.invitations(family: fixture.family).first?.acceptedAt != nil)
        #expect(try await fixture.stores.accounts.members(family: fixture.family).map(\.username) == ["kim", "halmeoni"])

        // A revoked invitation opens nothing; another family cannot revoke one.
        let (second, pending) = try await sharing.invite(by: try await owner(fixture), role: .editor, days: 1)
        await #expect(throws: StoreError.self) { try await sharing.revokeInvitation(pending.id, family: try await fixture.otherFamily()) }
        #expect(try await sharing.openInvitation(token: second) != nil)
        try await sharing.revokeInvitation(pending.id, family: fixture.family)
        #expect(try await sharing.openInvitation(token: second) == nil)
        await #expect(throws: StoreError.self) { try await sharing.accept(token: second, user: grandma, newUser: nil) }
    }

    @Test(arguments: Engine.available) func aMemberWhoAcceptsAgainKeepsTheirRole(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let sharing = fixture.stores.sharing
        let kim = try await fixture.stores.accounts.user(named: "kim")
        let (token, _) = try await sharing.invite(by: try await owner(fixture), role: .viewer, days: 7)
        let (user, membership) = try await sharing.accept(token: token, user: kim, newUser: nil)
        #expect(user == kim && membership.role == .owner)
        // A new user's name is checked as at sign-up: taken names are refused and nothing is used up.
        let (other, _) = try await sharing.invite(by: try await owner(fixture), role: .viewer, days: 7)
        await #expect(throws: (any Error).self) { try await sharing.accept(token: other, user: nil, newUser: (username: "KIM", passwordHash: "h")) }
        #expect(try await sharing.openInvitation(token: other) != nil)
    }

    @Test(arguments: Engine.available) func aShareLinkShowsItsLiveEntriesUntilRevoked(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let sharing = fixture.stores.sharing
        let child = try await fixture.child()
        let first = try await fixture.entry("첫 걸음", at: "2026-03-01T10:00", children: [child.id])
        let second = try await fixture.entry("첫 말", at: "2026-03-02T10:00", children: [child.id])
        let owner = try await owner(fixture)
        let (token, link) = try await sharing.share(by: owner, entries: [second.id, first.id], label: "할머니께", days: 30)
        #expect(link.entryIDs == [second.id, first.id] && link.label == "할머니께" && link.familyID == fixture.family)
        #expect(link.expiresAt.timeIntervalSince(link.createdAt) == 30 * 86_400)
        #expect(try await sharing.openShareLink(token: token) == link)
        #expect(try await sharing.shareLinks(family: fixture.family) == [link])
        #expect(try await sharing.shareLinks(createdBy: owner.userID) == [link])
        #expect(try await sharing.shareLinks(family: try await fixture.otherFamily()).isEmpty)

        // An entry deleted since drops out of the link; the link stays.
        _ = try await fixture.stores.entries.delete(family: fixture.family, id: first.id, by: nil)
        #expect(try await sharing.openShareLink(token: token)?.entryIDs == [second.id])

        // Another family's entries cannot be shared; another family cannot revoke.
        let other = try await fixture.otherFamily()
        await #expect(throws: StoreError.self) {
            try await sharing.share(by: Membership(userID: owner.userID, familyID: other, role: .owner), entries: [second.id], label: nil, days: 1)
        }
        await #expect(throws: StoreError.self) { try await sharing.revokeShareLink(link.id, family: other) }
        try await sharing.revokeShareLink(link.id, family: fixture.family)
        #expect(try await sharing.openShareLink(token: token) == nil)
        #expect(try await sharing.shareLinks(family: fixture.family).isEmpty)
    }

    @Test(arguments: Engine.available) func everyLinkAUserMadeIsRevokedAtOnce(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let sharing = fixture.stores.sharing
        let child = try await fixture.child()
        let entry = try await fixture.entry("바다", at: "2026-07-01T10:00", children: [child.id])
        let owner = try await owner(fixture)
        let (one, _) = try await sharing.share(by: owner, entries: [entry.id], label: nil, days: 7)
        let (two, _) = try await sharing.share(by: owner, entries: [entry.id], label: "둘", days: 7)
        let (token, _) = try await sharing.invite(by: owner, role: .editor, days: 7)
        let (dad, editor) = try await sharing.accept(token: token, user: nil, newUser: (username: "appa", passwordHash: "h"))
        let (his, _) = try await sharing.share(by: editor, entries: [entry.id], label: nil, days: 7)
        #expect(try await sharing.revokeShareLinks(createdBy: owner.userID) == 2)
        #expect(try await sharing.openShareLink(token: one) == nil)
        #expect(try await sharing.openShareLink(token: two) == nil)
        #expect(try await sharing.openShareLink(token: his) != nil)
        #expect(try await sharing.shareLinks(createdBy: dad).count == 1)
        #expect(try await sharing.revokeShareLinks(createdBy: owner.userID) == 0)
    }

    @Test(arguments: Engine.available) func feedsAreRevokedByTheirMakerOrAnOwnerOnly(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let sharing = fixture.stores.sharing
        let owner = try await owner(fixture)
        let (token, viewer) = try await {
            let (invite, _) = try await sharing.invite(by: owner, role: .viewer, days: 7)
            return try await sharing.accept(token: invite, user: nil, newUser: (username: "halmeoni", passwordHash: "h"))
        }()
        _ = token
        let (ownerToken, ownersFeed) = try await sharing.makeFeed(by: owner, label: "우리 집", includesHolidays: true)
        let (viewerToken, viewersFeed) = try await sharing.makeFeed(by: viewer, label: nil, includesHolidays: false)
        #expect(ownersFeed.includesHolidays && !viewersFeed.includesHolidays && ownersFeed.label == "우리 집")
        #expect(try await sharing.openFeed(token: ownerToken) == ownersFeed)
        #expect(Set(try await sharing.feeds(family: fixture.family).map(\.id)) == [ownersFeed.id, viewersFeed.id])
        #expect(try await sharing.openFeed(token: "nothing") == nil)

        // A viewer cannot stop the owner's feed (it is not there for them); an owner may stop anyone's.
        await #expect(throws: StoreError.self) { try await sharing.revokeFeed(ownersFeed.id, by: viewer) }
        #expect(try await sharing.openFeed(token: ownerToken) != nil)
        try await sharing.revokeFeed(viewersFeed.id, by: owner)
        #expect(try await sharing.openFeed(token: viewerToken) == nil)
        try await sharing.revokeFeed(ownersFeed.id, by: owner)
        #expect(try await sharing.feeds(family: fixture.family).isEmpty)
    }
}
