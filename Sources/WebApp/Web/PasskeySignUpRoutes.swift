import Diary
import Foundation
import Hummingbird
import Persistence
import Secrets
import Services

/// An invitation accepted with a passkey instead of a password (docs/security.md, "Passkeys"): the invitation page
/// offers it first, where the browser can make one. The new account has no password (`BackupCatalogue.noPassword`,
/// which matches none), and its passkey is stored in the same transaction as the account and its membership, so that
/// no account is left without a way in. Choosing a username is throttled as on the password path.
struct PasskeySignUpRoutes {
    let sharing: any SharingStore
    let signIn: SignIn
    let ceremonies: PasskeySignIn

    struct OptionsAsked: Decodable {
        let username: String
    }

    struct Answer: Decodable {
        let username: String
        let clientDataJSON: String
        let attestationObject: String
    }

    func register(json routes: SecureRoutes) {
        routes.post("invite/:token/passkey/options", .link) { request, context in
            let token = try await openInvitation(context)
            let asked = try await request.decode(as: OptionsAsked.self, context: context)
            try await throttled(token, context)
            do {
                _ = try User(username: asked.username, createdAt: signIn.clock.now())
            } catch let error as ValidationError {
                throw Problem(status: .unprocessableContent, detail: error.text(Language(request)), field: "username")
            }
            if try await signIn.accounts.credentials(username: asked.username) != nil { throw try await taken(token, request, context) }
            return try JSONBody.response(try await ceremonies.signUpOptions(request, username: asked.username))
        }
        routes.post("invite/:token/passkey", .link) { request, context in
            let token = try await openInvitation(context)
            let answer = try await request.decode(as: Answer.self, context: context)
            try await throttled(token, context)
            let label = Activity.deviceLabel(request.headers[.userAgent] ?? "")
            let passkey = try await ceremonies.signUp(
                request, clientDataJSON: answer.clientDataJSON, attestationObject: answer.attestationObject,
                name: label.isEmpty ? SignInWord.passkeyNameDefault.text(Language(request)) : String(label.prefix(Passkey.maxNameLength)))
            let accepted: (user: UserID, membership: Membership)
            do {
                accepted = try await sharing.accept(
                    token: token, user: nil, newUser: (answer.username, BackupCatalogue.noPassword), passkey: passkey)
            } catch let error as ValidationError {
                throw Problem(status: .unprocessableContent, detail: error.text(Language(request)), field: error.field)
            } catch StoreError.conflict(field: "username", _) {
                throw try await taken(token, request, context)
            }
            let (cookie, session) = try await signIn.sessions.start(user: accepted.user, replacing: nil, with: .passkey)
            try await signIn.sessions.switchFamily(session, to: accepted.membership.familyID)
            var response = try JSONBody.response(SignInMethodsPages.SignedIn(next: "/"), status: .created)
            response.headers[values: .setCookie].append(WebCredentials.sessionCookie(cookie, secure: WebCredentials.isSecure(request)))
            response.headers[values: .setCookie].append(try await Devices.signedIn(session, request: request, signIn: signIn))
            return response
        }
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
