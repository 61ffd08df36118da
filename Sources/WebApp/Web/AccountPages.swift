import Diary
import Foundation
import HTTPTypes
import Hummingbird
import Persistence
import Services

/// Sign-in, sign-out, the signed-in start page, password change, family switching and first-run setup, as
/// server-rendered forms that work without JavaScript.
struct AccountPages {
    let signIn: SignIn

    func register(on pages: SecureRoutes) {
        pages.get("login", .anyone) { request, context in
            if context.userID != nil { return Self.redirect(WebCredentials.safeRedirect(request.uri.queryParameters["next"].map(String.init))) }
            return Self.loginPage(request, context: context, error: nil)
        }
        pages.post("login", .anyone) { [signIn] request, context in
            let username = context.form["username"] ?? ""
            let outcome = try await signIn.signIn(
                username: username, password: context.form["password"] ?? "", address: context.remoteAddress,
                previousCookie: request.cookies[WebCredentials.sessionCookie]?.value)
            switch outcome {
            case .signedIn(let cookie, let session):
                return try await Self.signedIn(cookie: cookie, session: session, next: context.form["next"], request: request, signIn: signIn)
            case .needsSecondStep(let user):
                let next = WebCredentials.safeRedirect(context.form["next"])
                var response = Self.redirect("/login/code?next=" + (next.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "/"))
                response.headers[values: .setCookie].append(
                    WebCredentials.cookie(
                        SecondStep.pendingCookie, signIn.secondStep.pendingValue(user: user), maxAge: Int(SecondStep.pendingLifetime),
                        secure: WebCredentials.isSecure(request)))
                return response
            case .wrongPassword:
                return Self.loginPage(request, context: context, error: .wrongPassword, username: username)
            case .throttled(let seconds):
                var response = Self.loginPage(request, context: context, error: .tooManyAttempts, username: username, status: .tooManyRequests)
                response.headers[.retryAfter] = String(seconds)
                return response
            }
        }
        pages.get("login/code", .anyone) { [signIn] request, context in
            guard signIn.secondStep.pendingUser(request.cookies[SecondStep.pendingCookie]?.value) != nil else { return Self.redirect("/login") }
            return Self.codePage(request, context: context, error: nil)
        }
        pages.post("login/code", .anyone) { [signIn] request, context in
            guard let user = signIn.secondStep.pendingUser(request.cookies[SecondStep.pendingCookie]?.value) else { return Self.redirect("/login") }
            let outcome = try await signIn.completeSecondStep(
                user: user, code: context.form["code"] ?? "", address: context.remoteAddress,
                previousCookie: request.cookies[WebCredentials.sessionCookie]?.value)
            switch outcome {
            case .signedIn(let cookie, let session):
                var response = try await Self.signedIn(cookie: cookie, session: session, next: context.form["next"], request: request, signIn: signIn)
                response.headers[values: .setCookie].append(WebCredentials.expired(SecondStep.pendingCookie, secure: WebCredentials.isSecure(request)))
                return response
            case .throttled(let seconds):
                var response = Self.codePage(request, context: context, error: Word.tooManyAttempts.text(Language(request)), status: .tooManyRequests)
                response.headers[.retryAfter] = String(seconds)
                return response
            case .wrongPassword, .needsSecondStep:
                return Self.codePage(request, context: context, error: SignInWord.wrongCode.text(Language(request)), status: .unprocessableContent)
            }
        }
        pages.post("logout", .signedIn) { [signIn] request, context in
            if let session = context.session { try await signIn.sessions.end(session.id) }
            var response = Self.redirect("/login")
            response.headers[values: .setCookie].append(WebCredentials.expired(WebCredentials.sessionCookie, secure: WebCredentials.isSecure(request)))
            response.headers[Self.clearSiteData] = Self.clearKept
            return response
        }
        // Every session and every API token of the user ends, this browser's too (a lost phone, a leaked token).
        pages.post("logout/everywhere", .session) { [signIn] request, context in
            try await signIn.accounts.signOutEverywhere(try context.user())
            var response = Self.redirect("/login")
            response.headers[values: .setCookie].append(WebCredentials.expired(WebCredentials.sessionCookie, secure: WebCredentials.isSecure(request)))
            response.headers[Self.clearSiteData] = Self.clearKept
            return response
        }
        pages.get("account/password", .strongSession) { request, context in
            Self.passwordPage(request, context: context, error: nil)
        }
        pages.post("account/password", .strongSession) { [signIn] request, context in
            do {
                try await signIn.changePassword(
                    user: try context.user(), current: context.form["currentPassword"] ?? "",
                    new: context.form["newPassword"] ?? "", keeping: context.session, address: context.remoteAddress)
            } catch let error as ValidationError {
                return Self.passwordPage(request, context: context, error: error.field == "newPassword" ? .passwordTooShort : .wrongPassword)
            }
            return Self.redirect("/settings?done=password")
        }
        pages.get("setup", .anyone) { [signIn] request, context in
            let token = request.uri.queryParameters["token"].map(String.init) ?? ""
            guard signIn.setup.matches(token), try await !signIn.accounts.hasUsers() else {
                throw Problem(status: .notFound, detail: "this setup link is no longer valid")
            }
            return Self.setupPage(request, context: context, token: token, error: nil)
        }
        pages.post("setup", .anyone) { [signIn] request, context in
            let token = context.form["token"] ?? ""
            do {
                let (cookie, _) = try await signIn.setUp(
                    token: token, username: context.form["username"] ?? "", password: context.form["password"] ?? "",
                    familyName: context.form["family"] ?? "")
                var response = Self.redirect("/")
                response.headers[values: .setCookie].append(WebCredentials.sessionCookie(cookie, secure: WebCredentials.isSecure(request)))
                return response
            } catch let error as ValidationError {
                return Self.setupPage(request, context: context, token: token, error: error.text(Language(request)))
            } catch let error as StoreError {
                return Self.setupPage(request, context: context, token: token, error: error.description)
            }
        }
    }

    /// The answer to a finished sign-in: the session's cookie, the device's, on to `next`.
    static func signedIn(cookie: String, session: Session, next: String?, request: Request, signIn: SignIn) async throws -> Response {
        var response = redirect(WebCredentials.safeRedirect(next))
        response.headers[values: .setCookie].append(WebCredentials.sessionCookie(cookie, secure: WebCredentials.isSecure(request)))
        response.headers[values: .setCookie].append(try await Devices.signedIn(session, request: request, signIn: signIn))
        // The HTTP cache goes at once. The pages and thumbnails the service worker kept, and the outbox of unsent
        // drafts, go when the first page sees another member than the last one here (app.js): the same member signing
        // in again after a session ran out keeps what was written offline.
        response.headers[clearSiteData] = #""cache""#
        return response
    }

    /// The second step's page: the code from the app, or a recovery code.
    private static func codePage(
        _ request: Request, context: AppRequestContext, error: String?, status: HTTPResponse.Status = .ok
    ) -> Response {
        let words = Words.table(Language(request))
        let (token, cookie) = csrf(request, context: context)
        let next = WebCredentials.safeRedirect(context.form["next"] ?? request.uri.queryParameters["next"].map(String.init) ?? "/")
        return form(
            request, context: context, title: words[.secondStep], action: "/login/code", csrf: token, submit: words[.signIn],
            hidden: ["next": next],
            fields: [FormField(name: "code", label: words[.codeOrRecoveryCode], autocomplete: "one-time-code")],
            note: words[.secondStepNote], error: error, status: status, cookie: cookie)
    }

    /// Signing out empties what this browser kept of the app: the service worker's pages and thumbnails, its
    /// registration, the outbox (IndexedDB) and the HTTP cache (`Clear-Site-Data`; cookies are set by the response
    /// itself). Signing in empties the HTTP cache; the rest goes when another member signs in (app.js).
    static let clearKept = #""cache", "storage""#
    static let clearSiteData = HTTPField.Name("Clear-Site-Data")!

    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }

    /// The CSRF token a page's forms carry: the session's, or before sign-in the `saessak_csrf` cookie's (made
    /// here when the browser has none yet).
    static func csrf(_ request: Request, context: AppRequestContext) -> (token: String, cookie: String?) {
        if let session = context.session { return (session.csrfToken, nil) }
        if let existing = request.cookies[WebCredentials.csrfCookie]?.value, existing.count >= 32 { return (existing, nil) }
        let value = WebCredentials.newCSRFValue()
        return (value, WebCredentials.cookie(WebCredentials.csrfCookie, value, maxAge: 86_400, secure: WebCredentials.isSecure(request)))
    }

    private static func loginPage(
        _ request: Request, context: AppRequestContext, error: Word?, username: String = "",
        status: HTTPResponse.Status = .ok
    ) -> Response {
        let words = Words.table(Language(request))
        let (token, cookie) = csrf(request, context: context)
        let next = WebCredentials.safeRedirect(context.form["next"] ?? request.uri.queryParameters["next"].map(String.init) ?? "/")
        let passkey = FormModel.PasskeyButton(
            label: words[.signInWithPasskey], next: next, refused: words[.passkeyRefused], cancelled: words[.passkeyCancelled],
            orWithPassword: words[.orWithPassword])
        return form(
            request, context: context, title: words[.signIn], action: "/login", csrf: token, submit: words[.signIn],
            hidden: ["next": next],
            fields: [
                FormField(name: "username", label: words[.username], value: username, autocomplete: "username"),
                FormField(name: "password", label: words[.password], type: "password", autocomplete: "current-password"),
            ],
            error: error.map { words[$0] }, passkey: passkey, status: status, cookie: cookie)
    }

    private static func passwordPage(_ request: Request, context: AppRequestContext, error: Word?) -> Response {
        let words = Words.table(Language(request))
        return form(
            request, context: context, title: words[.changePassword], action: "/account/password",
            csrf: context.session?.csrfToken ?? "", submit: words[.changePassword],
            fields: [
                FormField(name: "currentPassword", label: words[.currentPassword], type: "password", autocomplete: "current-password"),
                FormField(name: "newPassword", label: words[.newPassword], type: "password", autocomplete: "new-password"),
            ],
            error: error.map { words[$0] }, status: error == nil ? .ok : .unprocessableContent)
    }

    private static func setupPage(_ request: Request, context: AppRequestContext, token: String, error: String?) -> Response {
        let words = Words.table(Language(request))
        let (csrf, cookie) = csrf(request, context: context)
        return form(
            request, context: context, title: words[.setUp], action: "/setup", csrf: csrf, submit: words[.create],
            hidden: ["token": token],
            fields: [
                FormField(name: "username", label: words[.username], value: context.form["username"] ?? "", autocomplete: "username"),
                FormField(name: "password", label: words[.password], type: "password", autocomplete: "new-password"),
                FormField(name: "family", label: words[.familyName], value: context.form["family"] ?? "", autocomplete: "off"),
            ],
            note: words[.setUpIntro], error: error,
            passkeySignUp: .init(
                action: "/setup/passkey", heading: words[.setUpWithPasskey], label: words[.joinWithPasskeyButton],
                hint: words[.setUpWithPasskeyHint], orWithPassword: words[.orJoinWithPassword], token: token, asksFamily: true),
            status: error == nil ? .ok : .unprocessableContent, cookie: cookie)
    }

    /// A bare page with one form posting back with the CSRF token (`account-form.mustache`).
    static func form(
        _ request: Request, context: AppRequestContext, title: String, action: String, csrf: String, submit: String,
        hidden: [String: String] = [:], fields: [FormField], note: String? = nil, error: String? = nil,
        invitation: FormModel.Invitation? = nil, signInFirst: String? = nil, passkey: FormModel.PasskeyButton? = nil,
        passkeySignUp: FormModel.PasskeySignUp? = nil,
        status: HTTPResponse.Status = .ok, cookie: String? = nil
    ) -> Response {
        let model = FormModel(
            action: action, csrf: csrf, submit: submit, hidden: hidden.sorted { $0.key < $1.key }.map { Hidden(name: $0.key, value: $0.value) },
            fields: fields, note: note, error: error, invitation: invitation, signInFirst: signInFirst, passkey: passkey,
            passkeySignUp: passkeySignUp)
        return WebPage("account-form", title: title, model: model, status: status, bare: true)
            .response(request, context: context, setting: cookie.map { [$0] } ?? [])
    }

    /// What `account-form.mustache` shows: one form, posting back with the CSRF token (the page is bare: it brings
    /// its own).
    struct FormModel: PageModel {
        let action: String
        let csrf: String
        let submit: String
        let hidden: [Hidden]
        let fields: [FormField]
        let note: String?
        let error: String?
        let invitation: Invitation?
        /// For an invitation opened by someone not signed in: where to sign in first.
        let signInFirst: String?
        /// The sign-in page's passkey button, first (shown by app.js where the browser has WebAuthn).
        let passkey: PasskeyButton?
        /// An invitation's "join with a passkey", offered before the password (shown by app.js where WebAuthn is).
        let passkeySignUp: PasskeySignUp?

        struct PasskeySignUp {
            /// `/invite/TOKEN/passkey`: its `/options` first.
            let action: String
            let heading: String
            let label: String
            let hint: String
            let orWithPassword: String
            /// The setup link's token, sent with the fields (nil on an invitation: it is in the address).
            var token: String? = nil
            /// The setup page asks the family's name too.
            var asksFamily = false
        }

        struct PasskeyButton {
            let label: String
            let next: String
            let refused: String
            let cancelled: String
            let orWithPassword: String
        }

        /// The family an invitation is into, and as what.
        struct Invitation {
            let familyName: String
            let role: String
        }
    }

    struct Hidden {
        let name: String
        let value: String
    }
}
