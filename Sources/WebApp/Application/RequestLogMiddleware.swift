import Hummingbird
import Logging

/// One log line per request: method, path, status, milliseconds. Never the query (search words, setup tokens)
/// and never the secret in a share or invitation link's path, so the log holds nothing a reader could use.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    /// Path segments that carry a secret after them.
    static let secretAfter: Set<Substring> = ["s", "invite"]

    func handle(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        let path = Self.redacted(request.uri.path)
        do {
            let response = try await next(request, context)
            log(context, request.method.rawValue, path, response.status.code, started)
            return response
        } catch {
            log(context, request.method.rawValue, path, (error as? any HTTPResponseError)?.status.code ?? 500, started)
            throw error
        }
    }

    static func redacted(_ path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.enumerated().map { index, part in
            index > 0 && secretAfter.contains(parts[index - 1]) && index == 2 ? "…" : part
        }.joined(separator: "/")
    }

    private func log(_ context: AppRequestContext, _ method: String, _ path: String, _ status: Int, _ started: ContinuousClock.Instant) {
        let elapsed = (ContinuousClock.now - started).components
        // Tenths of a millisecond, without Foundation's slow String(format:).
        let tenths = elapsed.seconds * 10_000 + elapsed.attoseconds / 100_000_000_000_000
        context.logger.info("\(method) \(path) \(status) \(tenths / 10).\(tenths % 10) ms")
    }
}
