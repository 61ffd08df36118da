import Diary
import Foundation
import Hummingbird

/// A line the next page shows once at its top, after a form posted and was sent on (a redirect): what a delete moved
/// to the trash, with 실행 취소, or what a restore brought back. It rides in a short-lived HttpOnly cookie only this
/// server sets, and the page that shows it clears it.
struct PageNotice: Codable, Equatable {
    let text: String
    /// The trash item a delete made: the notice offers to undo it.
    var undo: String?

    static let cookie = "saessak_notice"

    /// `response` (a redirect) with this notice for the page it leads to.
    func attached(to response: Response, request: Request) -> Response {
        var response = response
        guard let json = try? JSONEncoder().encode(self) else { return response }
        let value = Base64URL.encode(Array(json))
        response.headers[values: .setCookie].append(
            WebCredentials.cookie(Self.cookie, value, maxAge: 120, secure: WebCredentials.isSecure(request)))
        return response
    }

    /// The notice the request carries, if any (anything unreadable is no notice).
    init?(_ request: Request) {
        guard let value = request.cookies[Self.cookie]?.value, value.utf8.count <= 3000, let bytes = Base64URL.decode(value),
            let notice = try? JSONDecoder().decode(PageNotice.self, from: Data(bytes))
        else { return nil }
        self = notice
    }

    init(text: String, undo: String? = nil) {
        self.text = text
        self.undo = undo
    }
}
