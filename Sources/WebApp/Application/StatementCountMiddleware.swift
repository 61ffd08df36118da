import HTTPTypes
import Hummingbird
import Persistence

/// `saessak serve --count-statements`: each response says in `Saessak-Statements` how many SQL statements its request
/// sent to the database (transaction framing included), and a read route with a budget says it in
/// `Saessak-Statement-Budget`. The query-count tests and `make bench` read them; a server facing people runs without,
/// since the number tells a little about what a page holds.
struct StatementCountMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    static let header = HTTPField.Name("Saessak-Statements")!
    /// The route's budget (`SecureRoutes.get(_:_:statements:)`), beside its count.
    static let budgetHeader = HTTPField.Name("Saessak-Statement-Budget")!

    func handle(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        let count = StatementCount()
        var response = try await StatementCount.$current.withValue(count) { try await next(request, context) }
        response.headers[Self.header] = String(count.total)
        return response
    }
}
