import Diary
import HTTPTypes
import Hummingbird
import Persistence
import Foundation
import Synchronization

/// Who may call a route. Every route declares one as it is registered (through `SecureRoutes`); the declarations
/// form the `AccessTable`, and a test enumerates the router's routes against it, so a route cannot be added without
/// saying who may use it.
public enum Access: String, Sendable, CaseIterable {
    /// No sign-in: health, the OpenAPI document, the sign-in and setup pages.
    case anyone
    /// Any signed-in user, whatever their family: their account, the family they act for.
    case signedIn
    /// A person signed in with their password in a browser (a session), never an API token, however strong: the
    /// password itself and signing out everywhere (issue 17: a read-only token could change the password).
    case session
    /// A session whose sign-in the family's rule does not hold back (`Session.mustStrengthen`): changing the password,
    /// removing a passkey, turning the second step off, new recovery codes. A password alone never undoes a stronger
    /// method (issue 66: it removed the member's passkey and changed their password).
    case strongSession
    /// A session adding a passkey or the second step: one the family's rule holds back only while its member has
    /// neither (their first strong method); a member who has one signs in with it first (`Session.mayEnrol`).
    case enrolment
    /// Whoever holds the link in the path (a share link, an invitation): the link is the credential, and the
    /// handler answers 404 for one that is unknown, expired, used or revoked.
    case link
    /// Any member of the family the request acts for (viewers included): reading the diary.
    case viewer
    /// Any member, viewers included, writing what is their own and changes nothing of the diary: comments and hearts
    /// (a grandparent answers a photo). Whose comment it is, the handler checks.
    case member
    /// Owners and editors: writing the diary, children, events.
    case editor
    /// Owners only: members, invitations, share links, the family itself.
    case owner

    /// The role a member needs, or nil when no membership is needed.
    var role: Role? {
        switch self {
        case .anyone, .signedIn, .session, .strongSession, .enrolment, .link: nil
        case .viewer, .member: .viewer
        case .editor: .editor
        case .owner: .owner
        }
    }

    /// Throws 401 (nobody signed in) or 403 (a member whose role is not enough); a member of another family never
    /// gets this far with an ID of this one: the stores answer 404 for it.
    func check(_ context: AppRequestContext) throws {
        if self == .signedIn { _ = try context.user() }
        if self == .session || self == .strongSession || self == .enrolment {
            _ = try context.user()
            guard let session = context.session else {
                throw Problem(status: .forbidden, detail: "only a signed-in browser session may do this, never an API token")
            }
            if self == .strongSession, session.mustStrengthen { throw Self.strengthen }
            if self == .enrolment, !session.mayEnrol { throw Self.useStrongMethod }
        }
        guard let required = role else { return }
        if context.session?.mustStrengthen == true { throw Self.strengthen }
        let membership = try context.member()
        guard membership.role.includes(required) else {
            throw Problem(status: .forbidden, detail: Self.refusal(membership.role, needs: required))
        }
    }

    /// A password's session of an owner or editor in a family that asks for more (`Session.mustStrengthen`).
    static let strengthen = Problem(
        status: .forbidden,
        detail: "this family asks its owners and editors to sign in with a passkey or the second step: add one at /settings/sign-in, then sign in with it")

    /// A password's session held back by the family's rule, of a member who already has a stronger method.
    static let useStrongMethod = Problem(
        status: .forbidden,
        detail: "you have a passkey or the second step: sign in with it before changing how you sign in")

    private static func refusal(_ role: Role, needs required: Role) -> String {
        switch (role, required) {
        case (.viewer, _): "a viewer can read this family's diary but not change it"
        default: "only an owner of the family can do this"
        }
    }
}

/// Every route's declared access: method and path (as the router spells it) → `Access`.
public final class AccessTable: Sendable {
    public struct Route: Hashable, Sendable, CustomStringConvertible {
        public let method: HTTPRequest.Method
        public let path: String

        public var description: String { "\(method.rawValue) \(path)" }
    }

    private let declared = Mutex<(routes: [Route: Access], pages: Set<Route>, statements: [Route: Int])>(([:], [], [:]))

    public var routes: [Route: Access] { declared.withLock { $0.routes } }
    /// The routes that are pages: they send a browser that is not signed in to the sign-in page.
    public var pages: Set<Route> { declared.withLock { $0.pages } }
    /// The most SQL statements a read route may run, whatever the family's size (`SecureRoutes.get(_:_:statements:)`).
    public var statementBudgets: [Route: Int] { declared.withLock { $0.statements } }

    func declare(_ method: HTTPRequest.Method, _ path: String, _ access: Access, page: Bool, statements: Int? = nil) {
        declared.withLock { table in
            let route = Route(method: method, path: RouterPath(path).description)
            precondition(table.routes[route] == nil, "\(route) is declared twice")
            table.routes[route] = access
            if page { table.pages.insert(route) }
            if let statements { table.statements[route] = statements }
        }
    }
}

/// Registers routes under a path prefix, each with the access it declares. Before the handler runs: who is asking
/// (`Authenticator`), the access check, then for state-changing requests the CSRF check (`WebCredentials`). Pages (`pages: true`) send a browser
/// that is not signed in to the sign-in page instead of answering 401.
struct SecureRoutes {
    let router: Router<AppRequestContext>
    let prefix: String
    let table: AccessTable
    let authenticator: Authenticator
    var pages = false

    /// A read. `statements`: the most SQL statements it may run (sign-in included), however large the family — a
    /// page's budget, held by the query-count tests (`blackbox/test_statement_counts.py`) on both engines.
    func get<Output: ResponseGenerator>(
        _ path: String, _ access: Access, statements: Int? = nil,
        use handler: @escaping @Sendable (Request, AppRequestContext) async throws -> Output
    ) { on(.get, path, access, statements: statements, use: handler) }

    func post<Output: ResponseGenerator>(
        _ path: String, _ access: Access,
        use handler: @escaping @Sendable (Request, AppRequestContext) async throws -> Output
    ) { on(.post, path, access, use: handler) }

    func put<Output: ResponseGenerator>(
        _ path: String, _ access: Access,
        use handler: @escaping @Sendable (Request, AppRequestContext) async throws -> Output
    ) { on(.put, path, access, use: handler) }

    func delete<Output: ResponseGenerator>(
        _ path: String, _ access: Access,
        use handler: @escaping @Sendable (Request, AppRequestContext) async throws -> Output
    ) { on(.delete, path, access, use: handler) }

    /// A POST to a `.link` route whose token in the path is the whole credential and which reads no cookie, so
    /// another site gains nothing by sending it: the unsubscribe link's one-click POST (RFC 8058), which a mail
    /// program sends without any CSRF token. Or an `.anyone` route that reads and changes nothing (the share
    /// target's answer when no service worker took the POST).
    func postWithoutCSRF<Output: ResponseGenerator>(
        _ path: String, _ access: Access,
        use handler: @escaping @Sendable (Request, AppRequestContext) async throws -> Output
    ) {
        precondition(access == .link || access == .anyone, "only a link route, or one open to anyone, may go without the CSRF check")
        on(.post, path, access, checksCSRF: false, use: handler)
    }

    /// Any other method (`PATCH`, `HEAD`, `OPTIONS`: the resumable uploads).
    func on<Output: ResponseGenerator>(
        _ method: HTTPRequest.Method, _ path: String, _ access: Access, checksCSRF: Bool = true, statements: Int? = nil,
        use handler: @escaping @Sendable (Request, AppRequestContext) async throws -> Output
    ) {
        let full = prefix.isEmpty ? path : "\(prefix)/\(path)"
        table.declare(method, full, access, page: pages, statements: statements)
        let pages = pages
        let authenticator = authenticator
        // Public machine routes ignore credentials; pages open to anyone (sign-in, setup) still want to know.
        let identifies = access != .anyone || pages
        router.on(RouterPath(full), method: method) { request, context in
            var request = request
            var context = context
            do {
                if identifies { try await authenticator.authenticate(request, &context) }
                // A page the family's rule keeps from a password's session: where a passkey or the second step is added.
                if pages, method == .get, access == .signedIn, context.session?.mustStrengthen == true { throw Access.strengthen }
                try access.check(context)
                if checksCSRF, !WebCredentials.safeMethods.contains(method), !context.viaBearerToken {
                    context.form = try await WebCredentials.form(&request, context: context)
                    try WebCredentials.checkCSRF(request, context: context)
                }
                var response = try await handler(request, context).response(from: request, context: context)
                // Counting (`--count-statements`): the budget beside the count, for the tests to hold it to.
                if let statements, StatementCount.current != nil {
                    response.headers[StatementCountMiddleware.budgetHeader] = String(statements)
                }
                return response
            } catch let problem as Problem where pages && problem.detail == Access.strengthen.detail {
                // A page sends them where they can add a passkey or the second step.
                return Response(status: .seeOther, headers: [.location: "/settings/sign-in?strengthen=1"])
            } catch let problem as Problem where pages && problem.status == .unauthorized {
                let back = request.uri.path + (request.uri.query.map { "?\($0)" } ?? "")
                let target = "/login?next=" + (back.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "/")
                return Response(status: .seeOther, headers: [.location: target])
            } catch where pages {
                // People read pages: errors there are pages too, in their language.
                return ErrorPage.response(Problem(error), request: request, context: context)
            }
        }
    }
}
