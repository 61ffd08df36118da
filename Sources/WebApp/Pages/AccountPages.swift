import Diary
import DiaryStore
import Foundation
import Hummingbird
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
            case .signedIn(let cookie, _):
                var response = Self.redirect(WebCredentials.safeRedirect(context.form["next"]))
                response.headers[values: .setCookie].append(WebCredentials.sessionCookie(cookie, secure: WebCredentials.isSecure(request)))
                return response
            case .wrongPassword:
                return Self.loginPage(request, context: context, error: .wrongPassword, username: username)
            case .throttled(let seconds):
                var response = Self.loginPage(request, context: context, error: .tooManyAttempts, username: username, status: .tooManyRequests)
                response.headers[.retryAfter] = String(seconds)
                return response
            }
        }
        pages.post("logout", .signedIn) { [signIn] request, context in
            if let session = context.session { try await signIn.sessions.end(session.id) }
            var response = Self.redirect("/login")
            response.headers[values: .setCookie].append(WebCredentials.expired(WebCredentials.sessionCookie, secure: WebCredentials.isSecure(request)))
            return response
        }
        // Every session and every API token of the user ends, this browser's too (a lost phone, a leaked token).
        pages.post("logout/everywhere", .session) { [signIn] request, context in
            try await signIn.accounts.signOutEverywhere(try context.user())
            var response = Self.redirect("/login")
            response.headers[values: .setCookie].append(WebCredentials.expired(WebCredentials.sessionCookie, secure: WebCredentials.isSecure(request)))
            return response
        }
        pages.get("account/password", .session) { request, context in
            Self.passwordPage(request, context: context, error: nil)
        }
        pages.post("account/password", .session) { [signIn] request, context in
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
                return Self.setupPage(request, context: context, token: token, error: error.description)
            } catch let error as StoreError {
                return Self.setupPage(request, context: context, token: token, error: error.description)
            }
        }
    }

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
        let language = Language(request)
        let (token, cookie) = csrf(request, context: context)
        let next = context.form["next"] ?? request.uri.queryParameters["next"].map(String.init) ?? "/"
        let fields = """
            <input type="hidden" name="next" value="\(HTML.escape(WebCredentials.safeRedirect(next)))">
            \(HTMLPage.field("username", label: Word.username.text(language), value: username, autocomplete: "username"))
            \(HTMLPage.field("password", label: Word.password.text(language), type: "password", autocomplete: "current-password"))
            """
        let body = (error.map { HTMLPage.message($0.text(language)) } ?? "")
            + HTMLPage.form(action: "/login", csrf: token, fields: fields, submit: Word.signIn.text(language))
        return HTMLPage(language: language, title: Word.signIn.text(language), body: body, status: status)
            .response(setting: cookie.map { [$0] } ?? [])
    }

    private static func passwordPage(_ request: Request, context: AppRequestContext, error: Word?) -> Response {
        let language = Language(request)
        let fields = """
            \(HTMLPage.field("currentPassword", label: Word.currentPassword.text(language), type: "password", autocomplete: "current-password"))
            \(HTMLPage.field("newPassword", label: Word.newPassword.text(language), type: "password", autocomplete: "new-password"))
            """
        let body = (error.map { HTMLPage.message($0.text(language)) } ?? "")
            + HTMLPage.form(action: "/account/password", csrf: context.session?.csrfToken ?? "", fields: fields,
                submit: Word.changePassword.text(language))
        return HTMLPage(language: language, title: Word.changePassword.text(language), body: body,
            status: error == nil ? .ok : .unprocessableContent).response()
    }

    private static func setupPage(_ request: Request, context: AppRequestContext, token: String, error: String?) -> Response {
        let language = Language(request)
        let (csrf, cookie) = csrf(request, context: context)
        let fields = """
            <input type="hidden" name="token" value="\(HTML.escape(token))">
            \(HTMLPage.field("username", label: Word.username.text(language), value: context.form["username"] ?? "", autocomplete: "username"))
            \(HTMLPage.field("password", label: Word.password.text(language), type: "password", autocomplete: "new-password"))
            \(HTMLPage.field("family", label: Word.familyName.text(language), value: context.form["family"] ?? "", autocomplete: "off"))
            """
        let body = HTMLPage.message(Word.setUpIntro.text(language), role: "note") + (error.map { HTMLPage.message($0) } ?? "")
            + HTMLPage.form(action: "/setup", csrf: csrf, fields: fields, submit: Word.create.text(language))
        return HTMLPage(language: language, title: Word.setUp.text(language), body: body,
            status: error == nil ? .ok : .unprocessableContent).response(setting: cookie.map { [$0] } ?? [])
    }
}
