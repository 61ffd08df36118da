import Hummingbird
import Logging

/// One log line per request: method, path, status, milliseconds. Never the query (search words, setup tokens)
/// and never the secret in a share link's, invitation's or calendar feed's path, so the log holds nothing a reader
/// could use. Paths with empty segments are refused before routing, so each page has one spelling.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    /// First path segments, and which segments after them are a secret: share links, invitations and calendar feeds
    /// (the second); an unsubscribe link (`/mail/unsubscribe/<family>/<user>/<signature>`: who it is for too).
    static let secretSegments: [String: ClosedRange<Int>] = ["s": 1...1, "invite": 1...1, "feeds": 1...1, "mail": 2...4]

    func handle(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        let path = Self.redacted(request.uri.path)
        // One spelling of each path: `//s/TOKEN` was served as `/s/TOKEN` and logged as it came (issue 17).
        guard Self.isNormal(request.uri.path) else {
            log(context, request.method.rawValue, path, 404, started)
            throw Problem(status: .notFound, detail: "no such page (a path has no empty segments)")
        }
        do {
            let response = try await next(request, context)
            log(context, request.method.rawValue, path, response.status.code, started)
            return response
        } catch {
            log(context, request.method.rawValue, path, (error as? any HTTPResponseError)?.status.code ?? 500, started)
            throw error
        }
    }

    /// No empty segment (`//`, or a trailing `/` after something) and no encoded slash.
    static func isNormal(_ path: String) -> Bool {
        path == "/" || (path.hasPrefix("/") && !path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).contains(where: \.isEmpty)
            && !(Self.isEncoded(path) && path.lowercased().contains("%2f")))
    }

    /// Whether `path` has a `%` at all: nearly every path has none, and Foundation's decoding of one that has none
    /// was most of this middleware's time (0.7 % of a busy page).
    static func isEncoded(_ path: String) -> Bool { path.utf8.contains(UInt8(ascii: "%")) }

    /// The path as logged: segments without the empty ones, and the secret of a share link, invitation or feed as
    /// `…` however its path is spelled (`/S/`, `/%73/`, `/s%2F`), decoded first.
    static func redacted(_ path: String) -> String {
        let parts = ((Self.isEncoded(path) ? path.removingPercentEncoding : nil) ?? path).split(separator: "/").map(String.init)
        let secret = parts.first.flatMap { secretSegments[$0.lowercased()] }
        return "/" + parts.enumerated().map { index, part in
            secret?.contains(index) == true ? "…" : part
        }.joined(separator: "/")
    }

    private func log(_ context: AppRequestContext, _ method: String, _ path: String, _ status: Int, _ started: ContinuousClock.Instant) {
        let elapsed = (ContinuousClock.now - started).components
        // Tenths of a millisecond, without Foundation's slow String(format:).
        let tenths = elapsed.seconds * 10_000 + elapsed.attoseconds / 100_000_000_000_000
        context.logger.info("\(method) \(path) \(status) \(tenths / 10).\(tenths % 10) ms")
    }
}
