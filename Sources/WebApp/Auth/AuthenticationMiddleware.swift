import DiaryStore
import Foundation
import Hummingbird

/// Says who a request acts for: `Authorization: Bearer <token>`. It refuses only credentials that are wrong (401);
/// a request without any goes on anonymous, and each route's `Access` decides whether that is enough.
struct AuthenticationMiddleware: RouterMiddleware {
    let accounts: AccountStore

    func handle(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let header = request.headers[.authorization] else { return try await next(request, context) }
        guard header.count > 7, header.prefix(7).lowercased() == "bearer ",
            let membership = try await accounts.membership(forToken: String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces))
        else { throw Problem.unauthorized }
        var context = context
        context.membership = membership
        return try await next(request, context)
    }
}
