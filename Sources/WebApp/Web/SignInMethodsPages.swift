import Diary
import Foundation
import Hummingbird
import Services

/// The 로그인 방법 page (`/settings/sign-in`): a member's passkeys (named, when added and last used, each removable)
/// and the way to add one; and the JSON routes of the passkey ceremonies, for the sign-in page and this one
/// (app.js). Removing works without the script; adding and signing in with a passkey need it (WebAuthn is a
/// browser API).
struct SignInMethodsPages {
    let stores: WebStores
    let ceremonies: PasskeySignIn

    struct PasskeyRow {
        let id: String
        let name: String
        let added: String
        let used: String
    }

    struct SessionRow {
        let id: String
        let label: String
        let detail: String
        let isThis: Bool
    }

    struct MethodsModel: PageModel {
        let passkeys: [PasskeyRow]
        let empty: Bool
        let defaultName: String
        /// Whether the second step is on, and how many recovery codes are left ("남은 복구 코드 7개").
        let secondStepOn: Bool
        let codesLeft: String
        let sessions: [SessionRow]
        /// Sent here by the family's rule (`?strengthen=1`).
        let strengthen: Bool
    }

    /// Pages (signed-in browsers, never a token: a passkey signs a person in).
    func register(on pages: SecureRoutes) {
        pages.get("settings/sign-in", .session) { request, context in try await page(request, context) }
        pages.post("settings/sessions/:id/end", .session) { request, context in
            let id = context.parameters.get("id") ?? ""
            guard try await stores.signIn.sessions.end(id, of: try context.user()) else {
                throw Problem(status: .notFound, detail: "no such session")
            }
            // This browser's own: it is signed out.
            if id == context.session?.id {
                var response = AccountPages.redirect("/login")
                response.headers[values: .setCookie].append(WebCredentials.expired(WebCredentials.sessionCookie, secure: WebCredentials.isSecure(request)))
                return response
            }
            return PageNotice(text: SignInWord.sessionEnded.text(Language(request))).attached(
                to: AccountPages.redirect("/settings/sign-in"), request: request)
        }
        pages.post("settings/passkeys/:id/delete", .strongSession) { [ceremonies] request, context in
            guard let id = context.parameters.get("id").flatMap(PasskeyID.init) else {
                throw Problem(status: .notFound, detail: "no such passkey")
            }
            try await ceremonies.passkeys.remove(id, of: try context.user())
            return PageNotice(text: SignInWord.passkeyRemoved.text(Language(request))).attached(
                to: AccountPages.redirect("/settings/sign-in"), request: request)
        }
    }

    /// The ceremonies' JSON routes: errors as problem documents, for the script to show.
    func register(json routes: SecureRoutes) {
        routes.post("settings/passkeys/options", .enrolment) { [ceremonies] request, context in
            let user = try context.user()
            let username = try await stores.signIn.accounts.account(user).username
            return try JSONBody.response(try await ceremonies.creationOptions(request, user: user, username: username))
        }
        routes.post("settings/passkeys", .enrolment) { [ceremonies] request, context in
            let answer = try await request.decode(as: PasskeySignIn.Registration.self, context: context)
            let passkey = try await ceremonies.register(request, user: try context.user(), answer: answer)
            var response = try JSONBody.response(passkey, status: .created)
            response = PageNotice(text: SignInWord.passkeyAdded.text(Language(request))).attached(to: response, request: request)
            return response
        }
        routes.post("login/passkey/options", .anyone) { [ceremonies] request, context in
            try JSONBody.response(try await ceremonies.requestOptions(request, address: context.remoteAddress))
        }
        routes.post("login/passkey", .anyone) { [ceremonies] request, context in
            let answer = try await request.decode(as: PasskeySignIn.Assertion.self, context: context)
            let outcome = try await ceremonies.signIn(
                request, answer: answer, address: context.remoteAddress, previousCookie: request.cookies[WebCredentials.sessionCookie]?.value)
            switch outcome {
            case .signedIn(let cookie, let session):
                var response = try JSONBody.response(SignedIn(next: WebCredentials.safeRedirect(answer.next)))
                response.headers[values: .setCookie].append(WebCredentials.sessionCookie(cookie, secure: WebCredentials.isSecure(request)))
                response.headers[values: .setCookie].append(
                    try await Devices.signedIn(session, request: request, signIn: stores.signIn))
                response.headers[AccountPages.clearSiteData] = #""cache""#
                return response
            case .refused:
                throw Problem(status: .unauthorized, detail: PasskeySignIn.refusal)
            case .throttled(let seconds):
                throw Problem(status: .tooManyRequests, detail: "too many failed sign-ins: try again in \(seconds) s", retryAfter: seconds)
            }
        }
    }

    struct SignedIn: Encodable {
        let next: String
    }

    private func page(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let language = Language(request)
        let user = try context.user()
        let passkeys = try await ceremonies.passkeys.passkeys(of: user)
        let secondStepOn = try await stores.signIn.secondStep.store.isConfirmed(user)
        let codesLeft = secondStepOn ? try await stores.signIn.secondStep.store.recoveryCodesLeft(of: user) : 0
        let sessions = try await stores.signIn.sessions.sessions(of: user).map { session in
            let method: SignInWord = switch session.signedInWith {
            case .password: .signedInWithPassword
            case .passkey: .signedInWithPasskey
            case .secondStep: .signedInWithSecondStep
            }
            return SessionRow(
                id: session.id, label: session.label.isEmpty ? SignInWord.unknownBrowser.text(language) : session.label,
                detail: SignInWord.sessionDetail.text(
                    language, method.text(language), ReactionPages.when(session.createdAt, language), ReactionPages.when(session.lastSeenAt, language)),
                isThis: session.id == context.session?.id)
        }
        let rows = passkeys.map { passkey in
            PasskeyRow(
                id: passkey.id.description, name: passkey.name,
                added: SignInWord.passkeyAddedOn.text(language, ReactionPages.when(passkey.createdAt, language)),
                used: passkey.lastUsedAt.map { SignInWord.passkeyLastUsed.text(language, ReactionPages.when($0, language)) }
                    ?? SignInWord.passkeyNeverUsed.text(language))
        }
        return WebPage(
            "sign-in-methods", title: SignInWord.signInMethods.text(language), tab: .more,
            model: MethodsModel(
                passkeys: rows, empty: rows.isEmpty,
                defaultName: SignInWord.passkeyNameDefault.text(language), secondStepOn: secondStepOn,
                codesLeft: SignInWord.recoveryCodesLeft.text(language, "\(codesLeft)"), sessions: sessions,
                strengthen: context.session?.mustStrengthen == true)
        ).response(request, context: context)
    }
}
