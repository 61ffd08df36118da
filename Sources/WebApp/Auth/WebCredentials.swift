import Diary
import Foundation
import HTTPTypes
import Hummingbird
import Multipart
import NIOCore
import Secrets

/// The cookies of the web app and the CSRF rule.
///
/// A browser sends cookies with requests that other sites cause, so every state-changing request that is not
/// authenticated by a bearer token must carry a CSRF token: the session's (a form's `_csrf` field or an
/// `X-CSRF-Token` header), or before sign-in the value of the `saessak_csrf` cookie (double submit). Another site
/// can make a browser send the cookies but cannot read them or the pages that carry the tokens.
enum WebCredentials {
    static let sessionCookie = "saessak_session"
    static let csrfCookie = "saessak_csrf"
    static let csrfField = "_csrf"
    static let csrfHeader = HTTPField.Name("X-CSRF-Token")!

    /// `Set-Cookie` for a session: HttpOnly (no script reads it), SameSite=Lax (not sent with other sites' posts),
    /// Secure behind TLS.
    static func sessionCookie(_ value: String, secure: Bool) -> String {
        cookie(sessionCookie, value, maxAge: Int(Diary.Session.absoluteLifetime), secure: secure)
    }

    static func expired(_ name: String, secure: Bool) -> String { cookie(name, "", maxAge: 0, secure: secure) }

    static func cookie(_ name: String, _ value: String, maxAge: Int, secure: Bool) -> String {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax).description
    }

    /// Whether the browser reached us over TLS (through a reverse proxy that says so).
    static func isSecure(_ request: Request) -> Bool {
        request.headers[HTTPField.Name("X-Forwarded-Proto")!]?.lowercased() == "https"
    }

    static let safeMethods: Set<HTTPRequest.Method> = [.get, .head, .options]

    /// 403 unless an unsafe request proves it comes from our own pages (see above).
    static func checkCSRF(_ request: Request, context: AppRequestContext) throws {
        guard !safeMethods.contains(request.method), !context.viaBearerToken else { return }
        let expected = context.session?.csrfToken ?? request.cookies[csrfCookie]?.value ?? ""
        // A multipart form (the entry editor with its photos) is read by its handler, after this check: its token
        // rides in the form's action address.
        let multipart = request.headers[.contentType]?.lowercased().hasPrefix("multipart/form-data") == true
        let given = request.headers[csrfHeader] ?? context.form[csrfField]
            ?? (multipart ? request.uri.queryParameters[Substring(csrfField)].map(String.init) : nil) ?? ""
        guard !expected.isEmpty, constantTimeEqual(expected, given) else {
            throw Problem(
                status: .forbidden,
                detail: "the form has expired or came from another site (no valid CSRF token): reload the page and try again")
        }
    }

    private static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let a = Array(a.utf8), b = Array(b.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// A fresh random value for the pre-sign-in CSRF cookie.
    static func newCSRFValue() -> String {
        String(TokenGenerator.make().token.dropFirst(TokenGenerator.prefix.count))
    }

    /// The fields of an `application/x-www-form-urlencoded` body (at most 1 MiB: a memo's text fits), each with
    /// its values in order. Not Hummingbird's `URLEncodedFormDecoder`: it refuses a repeated plain key
    /// (`childId=a&childId=b`, what every group of checkboxes sends) with `duplicateKeys`, and our forms are read
    /// by field name, not decoded into one type (`FormFields`, fuzzed as the `form` target).
    static func form(_ request: inout Request, context: AppRequestContext) async throws -> FormFields {
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true
        else { return FormFields() }
        let buffer = try await request.collectBody(upTo: 1024 * 1024)
        return FormFields(parsing: String(buffer: buffer))
    }

    /// Where to go after signing in: a path of this site only (never `//other.site` or `https://…`).
    static func safeRedirect(_ target: String?) -> String {
        // No spaces or control characters at all: browsers drop tabs and line breaks from a URL, so `/\t/host` would
        // become `//host`, another site (issue 17).
        guard let target, target.hasPrefix("/"), !target.hasPrefix("//"),
            target.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F && $0 != "\\" })
        else { return "/" }
        return target
    }
}

