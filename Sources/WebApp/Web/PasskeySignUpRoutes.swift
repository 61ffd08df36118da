import Diary
import Foundation
import Hummingbird
import Persistence
import Secrets
import Services

/// An account made with a passkey instead of a password (docs/security.md, "Passkeys"): an invitation accepted, or
/// the first owner made from the setup link. Both pages offer it first, where the browser can make one. The new
/// account has no password (`BackupCatalogue.noPassword`, which matches none), and its passkey is stored in the same
/// transaction as the account (and its membership or family), so that no account is left without a way in. Choosing
/// a username through an invitation is throttled as on the password path.
struct PasskeySignUpRoutes {
    let sharing: any SharingStore
    let signIn: SignIn
    let ceremonies: PasskeySignIn

    /// What the page's section sends: its fields (the setup page's carry its link and the family's name), then the
    /// passkey's answer.
    struct Asked: Decodable {
        let username: String
        let token: String?
        let family: String?
        let clientDataJSON: String?
        let attestationObject: String?

        var answer: (clientDataJSON: String, attestationObject: String)? {
            guard let clientDataJSON, let attestationObject else { return nil }
            return (clientDataJSON, attestationObject)
        }
    }

    func register(json routes: SecureRoutes) {
        routes.post("invite/:token/passkey/options", .link) { request, context in
            let token = try await openInvitation(context)
            let asked = try await request.decode(as: Asked.self, context: context)
            try await throttled(token, context)
            try Self.check(asked, family: false, request)
            if try await signIn.accounts.credentials(username: asked.username) != nil { throw try await taken(token, request, context) }
            return try JSONBody.response(try await ceremonies.signUpOptions(request, username: asked.username))
        }
        routes.post("invite/:token/passkey", .link) { request, context in
            let token = try await openInvitation(context)
            let asked = try await request.decode(as: Asked.self, context: context)
            try await throttled(token, context)
            let passkey = try await checkedPasskey(asked, request)
            let accepted: (user: UserID, membership: Membership)
            do {
                accepted = try await sharing.accept(
                    token: token, user: nil, newUser: (asked.username, BackupCatalogue.noPassword), passkey: passkey)
            } catch let error as ValidationError {
                throw Problem(status: .unprocessableContent, detail: error.text(Language(request)), field: error.field)
            } catch StoreError.conflict(field: "username", _) {
                throw try await taken(token, request, context)
            }
            let (cookie, session) = try await signIn.sessions.start(user: accepted.user, replacing: nil, with: .passkey)
            try await signIn.sessions.switchFamily(session, to: accepted.membership.familyID)
            return try await signedIn(cookie: cookie, session: session, request)
        }
        routes.post("setup/passkey/options", .anyone) { request, context in
            let asked = try await request.decode(as: Asked.self, context: context)
            guard signIn.setup.matches(asked.token ?? ""), try await !signIn.accounts.hasUsers() else {
                throw Problem(status: .notFound, detail: "this setup link is no longer valid")
            }
            try Self.check(asked, family: true, request)
            return try JSONBody.response(try await ceremonies.signUpOptions(request, username: asked.username))
        }
        routes.post("setup/passkey", .anyone) { request, context in
            let asked = try await request.decode(as: Asked.self, context: context)
            let made: (cookie: String, session: Session)
            do {
                made = try await signIn.setUp(token: asked.token ?? "", username: asked.username, familyName: asked.family ?? "") {
                    try await checkedPasskey(asked, request)
                }
            } catch let error as ValidationError {
                throw Problem(status: .unprocessableContent, detail: error.text(Language(request)), field: error.field)
            }
            return try await signedIn(cookie: made.cookie, session: made.session, request)
        }
    }

    /// The fields of a new account, checked before the browser is asked to make a passkey for it.
    private static func check(_ asked: Asked, family: Bool, _ request: Request) throws {
        do {
            _ = try User.validUsername(asked.username)
            if family { _ = try Validate.name(asked.family ?? "", field: "family", maxLength: Family.maxNameLength) }
        } catch {
            throw Problem(status: .unprocessableContent, detail: error.text(Language(request)), field: error.field)
        }
    }

    /// The browser's answer, checked into the new account's passkey (named by what the browser said it was).
    private func checkedPasskey(_ asked: Asked, _ request: Request) async throws -> NewPasskey {
        guard let answer = asked.answer else { throw Problem(status: .badRequest, detail: "clientDataJSON and attestationObject are needed") }
        let label = Activity.deviceLabel(request.headers[.userAgent] ?? "")
        return try await ceremonies.signUp(
            request, clientDataJSON: answer.clientDataJSON, attestationObject: answer.attestationObject,
            name: label.isEmpty ? SignInWord.passkeyNameDefault.text(Language(request)) : String(label.prefix(Passkey.maxNameLength)))
    }

    /// The new account's session: its cookie, its browser's, and where to go.
    private func signedIn(cookie: String, session: Session, _ request: Request) async throws -> Response {
        var response = try JSONBody.response(SignInMethodsPages.SignedIn(next: "/"), status: .created)
        response.headers[values: .setCookie].append(WebCredentials.sessionCookie(cookie, secure: WebCredentials.isSecure(request)))
        response.headers[values: .setCookie].append(try await Devices.signedIn(session, request: request, signIn: signIn))
        return response
    }

    /// The token of an open invitation in the path, for someone not signed in (a member accepts with the page's button).
    private func openInvitation(_ context: AppRequestContext) async throws -> String {
        let token = context.parameters.get("token") ?? ""
        guard try await sharing.openInvitation(token: token) != nil else { throw Problem(status: .notFound, detail: "this invitation is no longer valid") }
        guard context.userID == nil else {
            throw Problem(status: .conflict, detail: "you are signed in: accept the invitation with the page's button")
        }
        return token
    }

    /// The invitation's username throttle (SharingPages): the link's hash and the address.
    private func throttleKey(_ token: String) -> String { "invitation " + TokenGenerator.digest(of: token).base64EncodedString() }

    private func throttled(_ token: String, _ context: AppRequestContext) async throws {
        if let wait = try await signIn.throttle.wait(account: throttleKey(token), address: context.remoteAddress ?? "unknown", now: signIn.clock.now()) {
            throw Problem(status: .tooManyRequests, detail: "too many tries: try again in \(wait) s", retryAfter: wait)
        }
    }

    private func taken(_ token: String, _ request: Request, _ context: AppRequestContext) async throws -> Problem {
        try await signIn.throttle.recordFailure(account: throttleKey(token), address: context.remoteAddress ?? "unknown", now: signIn.clock.now())
        return Problem(status: .conflict, detail: Word.usernameUnavailable.text(Language(request)), field: "username")
    }
}
