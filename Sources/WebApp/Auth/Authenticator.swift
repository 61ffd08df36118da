import Diary
import Foundation
import Hummingbird
import Persistence

/// Says who a request acts for: `Authorization: Bearer <token>`, or the session cookie of a signed-in browser.
/// It refuses only credentials that are wrong (401); a request without any goes on anonymous, and each route's
/// `Access` decides whether that is enough. An expired or unknown session cookie is simply not a sign-in.
///
/// `SecureRoutes` runs it for every route but the public machine ones (health, the OpenAPI document), which ignore
/// credentials: a health check with a token need not cost a database read.
struct Authenticator: Sendable {
    let accounts: any AccountStore
    let sessions: any SessionStore
    let activity: any ActivityStore

    func authenticate(_ request: Request, _ context: inout AppRequestContext) async throws {
        context.activity = activity
        if let header = request.headers[.authorization] {
            guard header.count > 7, header.prefix(7).lowercased() == "bearer ",
                let membership = try await accounts.membership(
                    forToken: String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces))
            else { throw Problem.unauthorized }
            context.membership = membership
            context.userID = membership.userID
            context.viaBearerToken = true
        } else if let cookie = request.cookies[WebCredentials.sessionCookie]?.value, !cookie.isEmpty,
            let session = try await sessions.session(forCookie: cookie)
        {
            context.session = session
            context.userID = session.userID
            // A password's session where the family asks for more acts for no family (`Access.strengthen` says why).
            context.membership = session.mustStrengthen ? nil : session.membership
        }
    }
}
