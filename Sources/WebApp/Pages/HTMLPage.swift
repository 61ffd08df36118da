import Hummingbird
import NIOCore
import Services

/// A page whose body is markup built in Swift (every piece of user text through `HTML.escape`), inside the shared
/// layout (`WebPage`) without the signed-in navigation: sign-in, setup, link holders' pages, errors.
struct HTMLPage {
    let language: Language
    let title: String
    /// Trusted markup, built with escaped text.
    let body: String
    var status: HTTPResponse.Status = .ok

    func response(setting cookies: [String] = []) -> Response {
        var values = WebPage.common(language, title: title)
        values["body"] = body
        let html = Templates.library.render(values, withTemplate: "basic") ?? ""
        var response = Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
        for cookie in cookies { response.headers[values: .setCookie].append(cookie) }
        return response
    }

    /// A form that posts back with the CSRF token.
    static func form(action: String, csrf: String, fields: String, submit: String) -> String {
        """
        <form method="post" action="\(HTML.escape(action))">
        <input type="hidden" name="\(WebCredentials.csrfField)" value="\(HTML.escape(csrf))">
        \(fields)
        <button type="submit">\(HTML.escape(submit))</button>
        </form>
        """
    }

    static func field(_ name: String, label: String, type: String = "text", value: String = "", autocomplete: String) -> String {
        """
        <p><label>\(HTML.escape(label))<br><input name="\(name)" type="\(type)" value="\(HTML.escape(value))" \
        autocomplete="\(autocomplete)" required></label></p>
        """
    }

    static func message(_ text: String, role: String = "alert") -> String {
        "<p role=\"\(role)\">\(HTML.escape(text))</p>"
    }
}
