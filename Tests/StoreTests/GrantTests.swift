import Diary
import Foundation
import KoreanCalendar
import Persistence
import Testing

/// Every kind of grant (`Grant.allCases`) against every way a grantor loses rights, on both engines (issue 66: an
/// owner removed from the family came back through their own invitation). What each should do is this test's own
/// table, written as a switch: a new kind of grant does not compile here until someone says what becomes of it.
@Suite struct GrantTests {
    enum Event: String, CaseIterable, CustomTestStringConvertible {
        case removal, demotionToEditor, demotionToViewer, signOutEverywhere, passwordReset

        var testDescription: String { rawValue }
    }

    /// Whether the grant still works after the event (nil: checked where it runs, not kept in the database).
    static func survives(_ grant: Grant, _ event: Event) -> Bool? {
        switch (grant, event) {
        case (.photoImport, _): nil  // a job file; `ImportJobs` asks for its grantor's role before it writes
        case (_, .removal): false
        case (.invitation, _): false
        case (.shareLink, .demotionToViewer), (.book, .demotionToViewer): false
        case (.shareLink, _), (.book, _): true
        case (.calendarFeed, .signOutEverywhere), (.calendarFeed, .passwordReset): false
        case (.apiToken, .signOutEverywhere), (.apiToken, .passwordReset): false
        case (.calendarFeed, _), (.apiToken, _): true
        }
    }

    @Test(arguments: Engine.available, Event.allCases) func everyGrantEndsWithItsGrantorsRight(engine: Engine, event: Event) async throws {
        let fixture = try await StoreFixture(engine)
        let stores = fixture.stores
        let accounts = stores.accounts
        _ = try await accounts.createUser(username: "dad", passwordHash: "x", familyName: "아빠집")
        try await accounts.addMember(username: "dad", familyName: "김씨네", role: .owner)
        let dad = Membership(userID: try await accounts.user(named: "dad"), familyID: fixture.family, role: .owner)
        let child = try await fixture.child()
        let entry = try await stores.entries.create(
            family: fixture.family, content: try EntryContent(title: "첫 걸음", body: "", date: try .init(iso: "2026-11-22T09:00"), childIDs: [child.id]),
            photos: [], author: dad.userID)

        // One of each, given by dad.
        var held: [Grant: () async throws -> Bool] = [:]
        for grant in Grant.allCases {
            switch grant {
            case .invitation:
                let (token, _) = try await stores.sharing.invite(by: dad, role: .editor, days: 7)
                held[grant] = { try await stores.sharing.openInvitation(token: token) != nil }
            case .shareLink:
                let (token, _) = try await stores.sharing.share(by: dad, entries: [entry.id], label: nil, days: 7)
                held[grant] = { try await stores.sharing.openShareLink(token: token) != nil }
            case .calendarFeed:
                let (token, _) = try await stores.sharing.makeFeed(by: dad, label: nil, includesHolidays: false)
                held[grant] = { try await stores.sharing.openFeed(token: token) != nil }
            case .apiToken:
                let (token, _) = try await accounts.createToken(for: dad, name: "dad's phone", role: nil)
                held[grant] = { try await accounts.membership(forToken: token) != nil }
            case .book:
                let request = BookRequest(
                    childID: nil, first: try SolarDate(year: 2026, month: 1, day: 1), last: try SolarDate(year: 2026, month: 12, day: 31),
                    year: 2026, format: .html, size: "a5", bleed: false, reactions: false, language: "ko")
                let job = try await stores.books.create(
                    family: fixture.family, requestedBy: dad.userID, request: request, limits: .init(making: 2, kept: 4)).get()
                let claimed = try #require(try await stores.books.claim(worker: "test", lease: 60, maxAttempts: 3))
                #expect(claimed.id == job.id)
                #expect(try await stores.books.finish(job.id, worker: "test", byteCount: 10, pages: 1, expiresAt: Date() + 86_400))
                held[grant] = { try await stores.books.job(family: fixture.family, id: job.id) != nil }
            case .photoImport:
                break
            }
        }
        for (grant, works) in held { #expect(try await works(), "\(grant) works before \(event)") }

        switch event {
        case .removal: try await accounts.removeMember(family: fixture.family, username: "dad", by: nil)
        case .demotionToEditor: _ = try await accounts.setRole(family: fixture.family, username: "dad", role: .editor, by: nil)
        case .demotionToViewer: _ = try await accounts.setRole(family: fixture.family, username: "dad", role: .viewer, by: nil)
        case .signOutEverywhere: try await accounts.signOutEverywhere(dad.userID)
        case .passwordReset: try await accounts.signOutEverywhere(dad.userID, passwordHash: "y")
        }

        for grant in Grant.allCases {
            let expected = Self.survives(grant, event)
            guard let expected, let works = held[grant] else {
                #expect(expected == nil && held[grant] == nil, "\(grant): no expectation or no grant made")
                continue
            }
            #expect(try await works() == expected, "\(grant) after \(event)")
            // The domain's own rule agrees with this table for what a role change decides.
            if event == .demotionToEditor || event == .demotionToViewer || event == .removal {
                let role: Role? = event == .removal ? nil : event == .demotionToEditor ? .editor : .viewer
                #expect(grant.isHeld(by: role) == expected, "\(grant): Grant.isHeld disagrees after \(event)")
            }
        }
    }
}
