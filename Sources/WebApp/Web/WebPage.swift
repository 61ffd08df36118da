import Crypto
import Foundation
import Hummingbird
import Installation
import KoreanCalendar
import Mustache
import NIOCore
import Services

/// The page templates (`Resources/templates/*.mustache`, rendered with swift-mustache) and the stylesheet and script
/// the pages share (`Resources/assets`), loaded once from the bundle.
enum Templates {
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        // Every template, partials and the layout included, escapes with `HTML.escape` (by Unicode scalar), set by
        // a pragma in front of its text so that no template can be without it.
        MustacheContentTypes.register(HTMLContentType(), named: HTMLContentType.name)
        for (name, data) in files(in: "templates", extension: "mustache") {
            do {
                try library.register(pragma + String(decoding: data, as: UTF8.self), named: name)
            } catch {
                // A broken template is a build mistake, caught by the tests that render every page.
                fatalError("template \(name) does not parse: \(error)")
            }
        }
        return library
    }()

    static let pragma = "{{% CONTENT_TYPE: \(HTMLContentType.name) }}"

    /// `app.css`, `app.js` and the app's icons, with a version (a hash of their content) for long caching.
    static let assets: [String: (body: ByteBuffer, contentType: String)] = {
        var assets: [String: (ByteBuffer, String)] = [:]
        for (name, data) in files(in: "assets", extension: nil) {
            let type =
                name.hasSuffix(".css") ? "text/css; charset=utf-8" : name.hasSuffix(".png") ? "image/png" : "text/javascript; charset=utf-8"
            assets[name] = (ByteBuffer(bytes: data), type)
        }
        return assets
    }()

    static let assetVersion: String = {
        var hasher = SHA256()
        for name in assets.keys.sorted() { hasher.update(data: Data(buffer: assets[name]!.body)) }
        return hasher.finalize().prefix(6).map { String(format: "%02x", $0) }.joined()
    }()

    private static func files(in folder: String, extension ext: String?) -> [(name: String, data: Data)] {
        // Missing only when the resource folders are: `serve` says so and stops before it answers anyone.
        guard let root = Installation.resources("saessak_WebApp")?.appendingPathComponent(folder),
            let names = try? FileManager.default.contentsOfDirectory(atPath: root.path)
        else { return [] }
        return names.sorted().compactMap { name in
            guard ext.map({ name.hasSuffix(".\($0)") }) ?? true,
                let data = FileManager.default.contents(atPath: root.appendingPathComponent(name).path)
            else { return nil }
            let base = ext.map { String(name.dropLast($0.count + 1)) } ?? name
            return (base, data)
        }
    }
}

/// One field of a bare page's form (`account-form.mustache`).
struct FormField {
    let name: String
    let label: String
    var type = "text"
    var value = ""
    let autocomplete: String
}

/// The tab of the bottom navigation a page belongs to.
enum Tab: String {
    case home, timeline, write, calendar, more
}

/// A server-rendered page: its main part — a template and its model, or markup written in Swift — inside the layout
/// every page shares (`PageLayout`: header, bottom tabs, language switch). Mustache escapes every `{{value}}`; only
/// `{{{markup}}}` built in Swift with `HTML.escape` (a memo search hit's passage) is trusted, and a page written in
/// Swift (the timeline, the month) goes through `HTMLWriter`.
struct WebPage {
    /// The template of the page's main part (`Resources/templates`), or nil when `main` is written in Swift.
    let template: String?
    /// The main part's markup when there is no template.
    var main = HTMLWriter(capacity: 0)
    let title: String
    var tab: Tab?
    /// The page's own values (nil: a page the layout and its words make alone).
    var model: (any PageModel)?
    var status: HTTPResponse.Status = .ok
    /// Without the signed-in header and tabs, whoever asks: sign-in, setup, password, invitations, share links,
    /// errors. Such a page's form brings its own `csrf` in its model.
    var bare = false
    var heading: Heading = .title
    /// The header's search box's text.
    var searchText: String?

    /// The page's `<h1>`: the title, written by the layout, or a heading of the page's own at the top of its main
    /// part (the home page's hidden one, the month's with its arrows).
    enum Heading {
        case title, inMain
    }

    init(
        _ template: String, title: String, tab: Tab? = nil, model: (any PageModel)? = nil, status: HTTPResponse.Status = .ok,
        bare: Bool = false, heading: Heading = .title
    ) {
        self.template = template
        self.title = title
        self.tab = tab
        self.model = model
        self.status = status
        self.bare = bare
        self.heading = heading
    }

    /// A page whose main part is written in Swift (`HTMLWriter`): no template, no reflection of a model.
    init(main: HTMLWriter, title: String, tab: Tab?, heading: Heading = .title, searchText: String? = nil) {
        template = nil
        self.main = main
        self.title = title
        self.tab = tab
        self.heading = heading
        self.searchText = searchText
    }

    /// What a template finds beside its model on every page, signed in or not: its words by key (`t.…`), the title
    /// and the app's name.
    static func common(_ language: Language, title: String) -> [String: Any] {
        let words = Words.table(language)
        return ["t": words.dictionary, "title": title, "appName": words[.appName]]
    }

    func response(_ request: Request, context: AppRequestContext, setting cookies: [String] = []) -> Response {
        let language = Language(request)
        // Shown once, to a member: what the last form did (`PageNotice`).
        let notice = bare || context.membership == nil ? nil : PageNotice(request)
        let reader =
            bare
            ? nil
            : PageLayout.Reader(
                userID: context.userID?.description, isMember: context.membership != nil,
                canEdit: context.membership?.role.includes(.editor) == true, csrf: context.session?.csrfToken ?? "")
        let layout = PageLayout(
            language: language, title: title, tab: tab, reader: reader, notice: notice, searchText: searchText, heading: heading)
        let page = layout.html(main: template.map { HTMLWriter(markup: mainFromTemplate($0, language: language, context: context)) } ?? main)
        var response = Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: page.bytes)))
        for cookie in cookies { response.headers[values: .setCookie].append(cookie) }
        if notice != nil {
            response.headers[values: .setCookie].append(WebCredentials.expired(PageNotice.cookie, secure: WebCredentials.isSecure(request)))
        }
        return response
    }

    /// The template's markup, its model's names found first and then the common ones and the reader's.
    private func mainFromTemplate(_ template: String, language: Language, context: AppRequestContext) -> String {
        var values = Self.common(language, title: title)
        if !bare {
            values["csrf"] = context.session?.csrfToken ?? ""
            values["member"] = context.membership != nil
            values["canEdit"] = context.membership?.role.includes(.editor) == true
            values["isOwner"] = context.membership?.role == .owner
        }
        let rendered: Any = model.map { PageValues(model: $0, layout: values) } ?? values
        return Templates.library.render(rendered, withTemplate: template) ?? "template \(template) is missing"
    }
}

/// Remembers a language asked for in the address (`?lang=en`) in the `saessak_lang` cookie, for the pages after
/// it: every page, the ones built in Swift (sign-in, errors) too.
struct LanguageMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        if let asked = request.uri.queryParameters["lang"].flatMap({ Language(rawValue: String($0)) }),
            request.cookies[Language.cookie]?.value != asked.rawValue
        {
            response.setCookie(Cookie(name: Language.cookie, value: asked.rawValue, maxAge: 31_536_000, path: "/", httpOnly: false, sameSite: .lax))
        }
        return response
    }
}

/// The assets route: `/assets/app.css?v=…` (the version in the address lets browsers keep it for a year).
struct Assets {
    func register(on routes: SecureRoutes) {
        routes.get("assets/:name", .anyone) { _, context in
            guard let name = context.parameters.get("name"), let asset = Templates.assets[name] else {
                throw Problem(status: .notFound, detail: "no such asset")
            }
            return Response(
                status: .ok,
                headers: [.contentType: asset.contentType, .cacheControl: "public, max-age=31536000, immutable"],
                body: .init(byteBuffer: asset.body))
        }
    }
}

/// The service worker (`Resources/assets/sw.js`), served from the root so that its scope is the whole app, never
/// cached by the browser (an update is seen at the next page), and the page it shows offline for a page it does not
/// hold.
struct ServiceWorker {
    func register(on routes: SecureRoutes) {
        routes.get("sw.js", .anyone) { _, _ in
            guard let script = Templates.assets["sw.js"] else { throw Problem(status: .notFound, detail: "no service worker") }
            return Response(
                status: .ok, headers: [.contentType: script.contentType, .cacheControl: "no-cache"], body: .init(byteBuffer: script.body))
        }
        routes.get("offline", .anyone) { request, context in
            WebPage("offline", title: Word.offline.text(Language(request)), bare: true).response(request, context: context)
        }
    }
}

/// The web app manifest (`/manifest.webmanifest`), which makes the app installable on a phone's home screen: named in
/// the reader's language (새싹 or Saessak), opening standalone at the home page, in the pages' colours, with icons a
/// phone may crop to a circle (made once by `scripts/make-icons.sh`); and a share target, so that photos and clips
/// shared from the phone's gallery open the editor with them (the service worker takes the POST: sw.js).
struct Manifest {
    func register(on routes: SecureRoutes) {
        routes.get("manifest.webmanifest", .anyone) { request, _ in
            let language = Language(request)
            let icon = { (name: String, size: Int, purpose: String) -> [String: String] in
                ["src": "/assets/\(name)?v=\(Templates.assetVersion)", "sizes": "\(size)x\(size)", "type": "image/png", "purpose": purpose]
            }
            let manifest: [String: any Sendable] = [
                "id": "/", "start_url": "/", "scope": "/", "display": "standalone", "lang": language.rawValue, "dir": "ltr",
                "name": language == .korean ? "새싹 — 우리 아이 성장 일기" : "Saessak — a family's growth diary",
                "short_name": Word.appName.text(language),
                "description": language == .korean
                    ? "사진과 글로 남기는 아이의 성장, 음력과 절기까지" : "A child's growth in photos and words, with the Korean calendar",
                "theme_color": "#2b6e45", "background_color": "#f6f7f5",
                "icons": [icon("icon-192.png", 192, "any"), icon("icon-512.png", 512, "any"), icon("icon-512.png", 512, "maskable")],
                "share_target": [
                    "action": "/share", "method": "POST", "enctype": "multipart/form-data",
                    "params": ["files": [["name": "photos", "accept": ["image/*", "video/*"]] as [String: any Sendable]]] as [String: any Sendable],
                ] as [String: any Sendable],
            ]
            let body = try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys, .withoutEscapingSlashes])
            return Response(
                status: .ok,
                headers: [.contentType: "application/manifest+json", .cacheControl: "no-cache", .vary: "Cookie, Accept-Language"],
                body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        // The share target's POST reaches the server only when no service worker took it (a browser without one, or
        // before it started): the files are not kept — they would come without the CSRF token every write needs —
        // and the editor says they did not arrive. It reads nothing and changes nothing.
        routes.postWithoutCSRF("share", .anyone) { _, _ in
            Response(status: .seeOther, headers: [.location: "/entries/new?shared=lost"])
        }
    }
}

/// swift-mustache's own HTML escaping goes by Character; templates use `HTML.escape` (by Unicode scalar) instead.
struct HTMLContentType: MustacheContentType {
    static let name = "SAESSAK_HTML"

    func escapeText(_ text: String) -> String { HTML.escape(text) }
}
