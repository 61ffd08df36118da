import Hummingbird
import NIOCore

/// A server-rendered page: every piece of user text goes through `HTML.escape` before it gets here.
struct HTMLPage {
    let language: Language
    let title: String
    /// Trusted markup, built with escaped text.
    let body: String
    var status: HTTPResponse.Status = .ok

    func response(setting cookies: [String] = []) -> Response {
        let html = """
            <!doctype html>
            <html lang="\(language.rawValue)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTML.escape(title)) · \(Phrase.appName.text(language))</title>
            </head>
            <body>
            <main>
            <h1>\(HTML.escape(title))</h1>
            \(body)
            </main>
            </body>
            </html>
            """
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
