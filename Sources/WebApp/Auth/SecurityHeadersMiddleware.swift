import HTTPTypes
import Hummingbird

/// Headers every response carries, errors included: no inline or foreign script, no framing (clickjacking), no
/// referrer (share-link and invitation URLs carry secrets), no MIME sniffing; and no API answer kept on disk
/// (`no-store`, issue 33: the web app reads `/api/v1/account`, `/entries`, `/tokens` with its cookie) unless it says
/// how it may be kept — photo files are `private` and immutable, which the offline app relies on.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob:",
        "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "form-action 'self'",
    ].joined(separator: "; ")

    static let frameOptions = HTTPField.Name("X-Frame-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!

    func handle(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[Self.frameOptions] = "DENY"
        response.headers[Self.referrerPolicy] = "no-referrer"
        response.headers[.xContentTypeOptions] = "nosniff"
        if response.headers[.cacheControl] == nil, request.uri.path.hasPrefix("/api/") { response.headers[.cacheControl] = "no-store" }
        return response
    }
}
