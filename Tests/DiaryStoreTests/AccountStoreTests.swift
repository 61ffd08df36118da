import Diary
import Foundation
import Testing

@testable import DiaryStore

@Suite struct AccountStoreTests {
    @Test func tokensActForTheirMembershipAndAreStoredHashed() async throws {
        let fixture = try await StoreFixture()
        let accounts = SQLiteAccountStore(fixture.database)
        let (token, record) = try await accounts.createToken(username: "kim", familyName: nil)
        let membership = try #require(try await accounts.membership(forToken: token))
        #expect(membership.familyID == fixture.family && membership.role == .owner && membership.userID == record.userID)
        #expect(try await accounts.membership(forToken: token + "x") == nil)
        let stored = try await fixture.database.writer.read { db in try Data.fetchOne(db, sql: "SELECT digest FROM apiTokens")! }
        #expect(stored.range(of: Data(token.utf8)) == nil)
    }

    @Test func namesAreUniqueAndNothingIsHalfCreated() async throws {
        let fixture = try await StoreFixture()
        let accounts = SQLiteAccountStore(fixture.database)
        await #expect(throws: StoreError.conflict(field: "family", message: "a family named '김씨네' already exists")) {
            try await accounts.createUser(username: "park", passwordHash: "x", familyName: "김씨네")
        }
        await #expect(throws: StoreError.self) { try await accounts.createUser(username: "KIM", passwordHash: "x", familyName: "다른집") }
        await #expect(throws: StoreError.notFound(kind: "user", id: "park")) { try await accounts.createToken(username: "park", familyName: nil) }
        let users = try await fixture.database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM users")! }
        #expect(users == 1)
    }

    @Test func theOnlyFamilyIsTheDefault() async throws {
        let fixture = try await StoreFixture()
        let accounts = SQLiteAccountStore(fixture.database)
        #expect(try await accounts.family(named: nil).id == fixture.family)
        _ = try await fixture.otherFamily()
        await #expect(throws: StoreError.self) { try await accounts.family(named: nil) }
        #expect(try await accounts.family(named: "김씨네").id == fixture.family)
    }
}
