import Hummingbird
import KoreanCalendar
import Services

extension Language {
    static let cookie = "saessak_lang"

    /// The language of a page: Korean first, English when asked (`?lang=`, remembered in the `saessak_lang` cookie) or
    /// when the browser prefers it (`Accept-Language`).
    init(_ request: Request) {
        if let asked = request.uri.queryParameters["lang"].flatMap({ Language(rawValue: String($0)) }) {
            self = asked
            return
        }
        if let chosen = request.cookies[Self.cookie].flatMap({ Language(rawValue: $0.value) }) {
            self = chosen
            return
        }
        // The first of ko/en the browser lists wins; anything else is Korean.
        let preferences = (request.headers[.acceptLanguage] ?? "").lowercased().split(separator: ",")
        for preference in preferences {
            let tag = preference.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if tag.hasPrefix("ko") { self = .korean; return }
            if tag.hasPrefix("en") { self = .english; return }
        }
        self = .korean
    }
}
