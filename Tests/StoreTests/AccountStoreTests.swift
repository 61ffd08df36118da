import Diary
import Foundation
import Persistence
import Testing

import DiaryStore

@Suite struct AccountStoreTests {
    @Test(arguments: Engine.available) func tokensActForTheirMembershipAndAreStoredHashed(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let accounts = fixture.stores.accounts
        let (token, record) = try await accounts.createToken(username: "kim", familyName: nil)
        let membership = try #require(try await accounts.membership(forToken: token))
        #expect(membership.familyID == fixture.family && membership.role == .owner && membership.userID == record.userID)
        #expect(try await accounts.membership(forToken: token + "x") == nil)
        let stored = try #require(try await fixture.data("SELECT digest FROM apiTokens"))
        #expect(stored.range(of: Data(token.utf8)) == nil)
    }

    @Test(arguments: Engine.available) func namesAreUniqueAndNothingIsHalfCreated(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let accounts = fixture.stores.accounts
        await #expect(throws: StoreError.conflict(field: "family", message: "a family named '김씨네' already exists")) {
            try await accounts.createUser(username: "park", passwordHash: "x", familyName: "김씨네")
        }
        await #expect(throws: StoreError.self) { try await accounts.createUser(username: "KIM", passwordHash: "x", familyName: "다른집") }
        await #expect(throws: StoreError.notFound(kind: "user", id: "park")) { try await accounts.createToken(username: "park", familyName: nil) }
        let users = try await fixture.count("SELECT count(*) FROM users")
        #expect(users == 1)
    }

    @Test(arguments: Engine.available) func theOnlyFamilyIsTheDefault(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let accounts = fixture.stores.accounts
        #expect(try await accounts.family(named: nil).id == fixture.family)
        _ = try await fixture.otherFamily()
        await #expect(throws: StoreError.self) { try await accounts.family(named: nil) }
        #expect(try await accounts.family(named: "김씨네").id == fixture.family)
    }
}
