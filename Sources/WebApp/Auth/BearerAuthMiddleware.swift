import DiaryStore
import Foundation
import Hummingbird

/// Authenticates `/api/v1` requests by `Authorization: Bearer <token>`; anything else is 401.
struct BearerAuthMiddleware: RouterMiddleware {
    let accounts: AccountStore

    func handle(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let header = request.headers[.authorization],
            header.count > 7, header.prefix(7).lowercased() == "bearer ",
            let membership = try await accounts.membership(forToken: String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces))
        else { throw Problem.unauthorized }
        var context = context
        context.membership = membership
        return try await next(request, context)
    }
}
