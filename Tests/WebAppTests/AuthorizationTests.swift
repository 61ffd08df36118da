import Diary
import DiaryStore
import Foundation
import Services
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import WebApp

/// Every registered route against the one access table, for every kind of caller.
@Suite struct AuthorizationTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-authz-\(UUID().uuidString)")

    @Test func everyRouteDeclaresItsAccess() async throws {
        let database = try DiaryDatabase(folder: folder)
        let photos = try PhotoService(dataFolder: folder, database: database, logger: .init(label: "test"))
        let (router, access) = buildRouter(database: database, dataFolder: folder, photos: photos, signIn: SignIn(database))
        let registered = Set(router.routes.map { AccessTable.Route(method: $0.method, path: $0.path.description) })
        let declared = Set(access.routes.keys)
        #expect(registered.subtracting(declared).isEmpty, "routes without a declared access")
        #expect(declared.subtracting(registered).isEmpty, "declared routes that are not registered")
        #expect(registered.count > 30)
    }

    /// Every read of a family's diary declares how many SQL statements it may run (`blackbox/test_statement_counts.py`
    /// holds each to it on both engines); only the routes that send a file or serve no family go without.
    @Test func everyReadDeclaresAStatementBudget() async throws {
        let database = try DiaryDatabase(folder: folder)
        let photos = try PhotoService(dataFolder: folder, database: database, logger: .init(label: "test"))
        let table = buildRouter(database: database, dataFolder: folder, photos: photos, signIn: SignIn(database)).access
        // Files and streams (their cost is the bytes), the sign-in and setup pages and a member's own sign-in methods
        // (browser sessions only: no family's diary, and no token to count them with), the app's own assets, and
        // `/calendar`, which only sends a browser on to a month.
        let exempt: Set<String> = [
            "/healthz", "/api/v1/openapi.json", "/assets/{name}", "/sw.js", "/offline", "/manifest.webmanifest", "/login", "/setup",
            "/account/password", "/settings/sign-in", "/settings/second-step", "/login/code", "/invite/{token}", "/api/v1/photos/{id}/original", "/api/v1/photos/{id}/thumbnail",
            "/api/v1/photos/{id}/video", "/api/v1/children/{id}/photo", "/s/{token}/photos/{photo}", "/s/{token}/videos/{photo}",
            "/api/v1/uploads/{upload}", "/settings/backup.zip", "/mail/unsubscribe/{family}/{user}/{token}", "/calendar",
        ]
        let reads = table.routes.keys.filter { $0.method == .get && !exempt.contains($0.path) }
        let unbudgeted = reads.filter { table.statementBudgets[$0] == nil }.map(\.description).sorted()
        #expect(unbudgeted.isEmpty, "reads without a statement budget: \(unbudgeted)")
        #expect(table.statementBudgets.keys.allSatisfy { $0.method == .get })
    }

    /// Every route that changes how a member signs in (the password, passkeys, the second step) checks the session's
    /// strength: a password's session that the family's rule holds back never removes a method or changes the
    /// password, and adds one only as the member's first (issue 66). Signing in and joining are not changes of a
    /// member's methods; reading the page of them is not a change.
    @Test func everyRouteThatChangesSignInMethodsChecksTheSessionsStrength() async throws {
        let database = try DiaryDatabase(folder: folder)
        let photos = try PhotoService(dataFolder: folder, database: database, logger: .init(label: "test"))
        let table = buildRouter(database: database, dataFolder: folder, photos: photos, signIn: SignIn(database)).access
        let changes = table.routes.filter { route, _ in
            let path = route.path
            return ["password", "passkey", "second-step", "recovery"].contains { path.contains($0) }
                && !path.hasPrefix("/login") && !path.hasPrefix("/invite/") && !path.hasPrefix("/setup")
                && !(route.method == .get && path == "/settings/sign-in")
        }
        #expect(changes.count >= 9, "\(changes.keys.map(\.description).sorted())")
        for (route, access) in changes {
            #expect(access == .strongSession || access == .enrolment, "\(route) is \(access)")
        }
    }

    /// Callers: nobody, the holder of a share link, a member of another family, and the family's viewer, editor and
    /// owner.
    enum Caller: String, CaseIterable {
        case anonymous, shareHolder, otherFamily, viewer, editor, owner

        var role: Role? {
            switch self {
            case .viewer: .viewer
            case .editor: .editor
            case .owner: .owner
            case .anonymous, .shareHolder, .otherFamily: nil
            }
        }
    }

    @Test func everyRouteAnswersEveryCallerAsItsAccessSays() async throws {
        let database = try DiaryDatabase(folder: folder)
        let accounts = database.stores.accounts
        let (_, family) = try await accounts.createUser(username: "mom", passwordHash: "x", familyName: "우리집")
        _ = try await accounts.createUser(username: "dad", passwordHash: "x", familyName: "dad")
        _ = try await accounts.createUser(username: "grandma", passwordHash: "x", familyName: "grandma")
        _ = try await accounts.createUser(username: "neighbour", passwordHash: "x", familyName: "옆집")
        try await accounts.addMember(username: "dad", familyName: "우리집", role: .editor)
        try await accounts.addMember(username: "grandma", familyName: "우리집", role: .viewer)
        var tokens: [Caller: String] = [:]
        tokens[.owner] = try await accounts.createToken(username: "mom", familyName: nil).0
        tokens[.editor] = try await accounts.createToken(username: "dad", familyName: "우리집").0
        tokens[.viewer] = try await accounts.createToken(username: "grandma", familyName: "우리집").0
        tokens[.otherFamily] = try await accounts.createToken(username: "neighbour", familyName: nil).0

        // One object of each kind in the family, for the IDs in paths.
        let child = try await database.stores.children.create(
            family: family.id, profile: try ChildProfile(name: "하늘", birthDate: .solar(try .init(iso: "2025-03-01"))))
        let entry = try await database.stores.entries.create(
            family: family.id,
            content: try EntryContent(title: "첫 걸음", body: "", date: try .init(iso: "2026-11-22T09:00"), childIDs: [child.id]))
        let memo = try await database.stores.memos.create(family: family.id, content: try MemoContent(title: "메모", body: ""))
        let event = try await database.stores.events.create(
            family: family.id,
            details: try EventDetails(childID: child.id, kind: .hospital, title: "검진", date: try .init(iso: "2026-11-22")))
        let anniversary = try await database.stores.anniversaries.create(
            family: family.id, details: try AnniversaryDetails(name: "결혼기념일", calendar: .solar, month: 5, day: 5))
        let owner = Membership(userID: try #require(try await accounts.credentials(username: "mom")).user, familyID: family.id, role: .owner)
        let shareToken = try await database.stores.sharing.share(by: owner, entries: [entry.id], label: nil, days: 1).token
        let ids = [
            "children": child.id.description, "entries": entry.id.description, "memos": memo.id.description,
            "events": event.id.description, "anniversaries": anniversary.id.description,
            "photos": UUID().uuidString.lowercased(), "health": child.id.description, "assets": "app.css",
        ]

        let app = try await buildApplication(AppConfiguration(port: 0, dataFolder: folder))
        let table = buildRouter(
            database: database, dataFolder: folder, photos: try PhotoService(dataFolder: folder, database: database, logger: .init(label: "test")),
            signIn: SignIn(database)
        ).access
        let access = table.routes
        let pages = table.pages
        let callerTokens = tokens
        try await app.test(.router) { client in
            // Writers last, so that their deletions do not hide what the others would have been answered.
            for caller in Caller.allCases {
                for (route, required) in access.sorted(by: { $0.key.description < $1.key.description }) {
                    var path = Self.fill(route.path, ids: ids)
                    if caller == .shareHolder { path = path.replacingOccurrences(of: "ssk_not_a_link", with: shareToken) }
                    var headers: HTTPFields = [.contentType: "application/json"]
                    if let token = callerTokens[caller] { headers[.authorization] = "Bearer \(token)" }
                    let (status, caching, type) = try await client.execute(
                        uri: path, method: route.method, headers: headers, body: ByteBuffer(string: "{}")
                    ) { ($0.status, $0.headers[.cacheControl], $0.headers[.contentType] ?? "") }
                    let what = "\(caller) \(route.method) \(path) (\(required))"
                    // No API answer is kept on disk (issue 33) but a photo file's, privately.
                    if path.hasPrefix("/api/") {
                        #expect(caching == "no-store" || caching?.hasPrefix("private,") == true && !type.contains("json"), "\(what): \(caching ?? "-")")
                    }
                    switch (caller, required) {
                    case (_, .anyone):
                        #expect(status != .unauthorized, "\(what) → \(status.code)")
                    case (_, .link):
                        // Only the holder's own share link opens, and only what it shows (not a photo it lacks).
                        if caller == .shareHolder, route.path == "/s/{token}" {
                            #expect(status == .ok, "\(what) → \(status.code)")
                        } else {
                            #expect(status == .notFound || (status == .forbidden && route.method != .get), "\(what) → \(status.code)")
                        }
                    case (.anonymous, _), (.shareHolder, _):
                        #expect(status == (pages.contains(route) ? .seeOther : .unauthorized), "\(what) → \(status.code)")
                    case (_, .session), (_, .strongSession), (_, .enrolment):
                        // Every caller here holds an API token: never enough for the password or signing out everywhere.
                        #expect(status == .forbidden, "\(what) → \(status.code)")
                    case (_, .signedIn):
                        #expect(status != .unauthorized && status != .forbidden, "\(what) → \(status.code)")
                    case (.otherFamily, _):
                        // Their own family's data, or 404 for ours; never any of ours.
                        #expect(status != .unauthorized && status != .forbidden, "\(what) → \(status.code)")
                        if route.path.contains("{") { #expect(status.code >= 400, "\(what) → \(status.code)") }
                        if route.path.contains("{"), route.method == .get || route.method == .delete {
                            #expect(status == .notFound, "\(what) → \(status.code)")
                        }
                    case (_, let required):
                        if caller.role!.includes(required.role!) {
                            #expect(status != .unauthorized && status != .forbidden, "\(what) → \(status.code)")
                        } else {
                            #expect(status == .forbidden, "\(what) → \(status.code)")
                        }
                    }
                }
                if caller == .viewer {
                    // Nothing of ours was changed by anybody so far: nobody, the other family, the viewer.
                    #expect(try await database.stores.memos.get(family: family.id, id: memo.id).content.title == "메모")
                    #expect(try await database.stores.entries.get(family: family.id, id: entry.id).content.title == "첫 걸음")
                    #expect(try await database.stores.children.get(family: family.id, id: child.id).profile.name == "하늘")
                }
            }

            // What each token role may make: a token of any role up to its own, never stronger, and without a role
            // one of its own (issue 17: a viewer's token minted an owner's by leaving the role out). The minted
            // token can do no more than its maker.
            for caller in [Caller.viewer, .editor, .owner] {
                let role = try #require(caller.role)
                let auth: HTTPFields = [.contentType: "application/json", .authorization: "Bearer \(try #require(callerTokens[caller]))"]
                for asked in [Role.viewer, .editor, .owner] {
                    let status = try await client.execute(
                        uri: "/api/v1/tokens", method: .post, headers: auth, body: ByteBuffer(string: #"{"name":"t","role":"\#(asked.rawValue)"}"#)
                    ) { $0.status }
                    #expect(status == (role.includes(asked) ? .created : .unprocessableContent), "\(caller) asking for \(asked) → \(status.code)")
                }
                let minted = try await client.execute(
                    uri: "/api/v1/tokens", method: .post, headers: auth, body: ByteBuffer(string: #"{"name":"t"}"#)
                ) { response in try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any] }
                #expect(minted?["role"] as? String == role.rawValue, "\(caller) leaving the role out")
                let mintedToken = try #require(minted?["token"] as? String)
                for (route, required) in access where required.role.map({ !role.includes($0) }) == true {
                    let status = try await client.execute(
                        uri: Self.fill(route.path, ids: ids), method: route.method,
                        headers: [.contentType: "application/json", .authorization: "Bearer \(mintedToken)"], body: ByteBuffer(string: "{}")
                    ) { $0.status }
                    #expect(status == .forbidden, "a token minted by \(caller): \(route) → \(status.code)")
                }
            }
        }
    }

    /// Every route whose path carries a secret (access `.link`) is one the request log redacts, in any spelling: a
    /// new kind of link cannot be added without its secret staying out of the log (issue 17).
    @Test func everyLinkRouteIsRedactedInTheLog() throws {
        let database = try DiaryDatabase(folder: folder)
        let table = buildRouter(
            database: database, dataFolder: folder, photos: try PhotoService(dataFolder: folder, database: database, logger: .init(label: "test")),
            signIn: SignIn(database)
        ).access
        let links = table.routes.filter { $0.value == .link }.map(\.key)
        #expect(links.count >= 4)
        for route in links {
            let path = Self.fill(route.path, ids: [:]).replacingOccurrences(of: "ssk_not_a_link", with: "ssk_SECRET")
            #expect(path.contains("ssk_SECRET"), "\(route)")
            for spelling in [path, "/" + path, path.uppercased(), path.replacingOccurrences(of: "/ssk_", with: "%2Fssk_")] {
                #expect(!RequestLogMiddleware.redacted(spelling).uppercased().contains("SSK_SECRET"), "\(route): \(spelling)")
            }
        }
    }

    /// `children/{id}/photo` → `children/<a child's id>/photo`: the collection before a parameter names its kind.
    static func fill(_ pattern: String, ids: [String: String]) -> String {
        var parts = pattern.split(separator: "/").map(String.init)
        for index in parts.indices where parts[index].hasPrefix("{") {
            let kind = parts[index] == "{photo}" ? "photos" : index > 0 ? parts[index - 1] : ""
            parts[index] = parts[index] == "{token}" ? "ssk_not_a_link" : ids[kind] ?? UUID().uuidString.lowercased()
        }
        return "/" + parts.joined(separator: "/")
    }
}
