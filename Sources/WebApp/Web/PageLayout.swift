import Services

/// The frame every page shares — the head with its assets, the header with the search box, the bottom tabs, the line
/// a form leaves for the next page (`PageNotice`), the heading and the language switch — written here and not as a
/// template the pages extend: through swift-mustache the layout's two dozen names were each looked up through the
/// context stack with dynamic casts, a tenth of a busy timeline's time (issue 35, `perf` under the bench's four
/// clients). Every value goes through `HTML.escape`, as the template's did.
struct PageLayout {
    let language: Language
    let title: String
    var tab: Tab?
    /// Who the page is for; nil on a bare page (sign-in, setup, share links, errors): no header search, no tabs.
    var reader: Reader?
    var notice: PageNotice?
    /// The search box's text (the timeline's search).
    var searchText: String?
    var heading: WebPage.Heading = .title

    /// The signed-in person the layout names: their id for the scripts, the CSRF token of their forms, and whether
    /// they belong to a family (the search box and tabs) and may write (the write tab).
    struct Reader {
        let userID: String?
        let isMember: Bool
        let canEdit: Bool
        let csrf: String
    }

    /// The whole page around `main`, as the bytes the response sends (`HTMLWriter`).
    func html(main: HTMLWriter) -> HTMLWriter {
        let words = Words.table(language)
        let version = Templates.assetVersion
        var page = HTMLWriter(capacity: main.bytes.count + 3_072)
        page.markup("<!doctype html>\n<html lang=\"\(language.rawValue)\">\n<head>\n<meta charset=\"utf-8\">\n")
        page.markup("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"theme-color\" content=\"#2b6e45\">\n")
        page.markup("<title>")
        page.text(title)
        page.markup(" · ")
        page.text(words[.appName])
        page.markup("</title>\n<link rel=\"manifest\" href=\"/manifest.webmanifest\">\n")
        page.markup("<link rel=\"icon\" href=\"/assets/icon-192.png?v=\(version)\" type=\"image/png\">\n")
        page.markup("<link rel=\"apple-touch-icon\" href=\"/assets/apple-touch-icon.png?v=\(version)\">\n")
        page.markup("<link rel=\"stylesheet\" href=\"/assets/app.css?v=\(version)\">\n")
        if let id = reader?.userID {
            page.markup("<meta name=\"saessak-member\" content=\"")
            page.text(id)
            page.markup("\">")
        }
        page.markup("\n")
        if let reader, reader.canEdit {
            page.markup("<meta name=\"saessak-csrf\" content=\"")
            page.text(reader.csrf)
            page.markup("\">")
        }
        page.markup("\n")
        for script in ["outbox", "editor", "app"] { page.markup("<script src=\"/assets/\(script).js?v=\(version)\" defer></script>\n") }
        page.markup("</head>\n<body>\n<a class=\"skip\" href=\"#main\">")
        page.text(words[.skipToContent])
        page.markup("</a>\n<header class=\"bar\">\n<a class=\"brand\" href=\"/\"><span aria-hidden=\"true\">🌱</span> ")
        page.text(words[.appName])
        page.markup("</a>\n")
        let member = reader?.isMember == true ? reader : nil
        if member != nil {
            page.markup("<form class=\"search\" action=\"/timeline\" method=\"get\" role=\"search\">\n<input id=\"site-search\" aria-label=\"")
            page.text(words[.search])
            page.markup("\" type=\"search\" name=\"q\" value=\"")
            page.text(searchText ?? "")
            page.markup("\" placeholder=\"")
            page.text(words[.searchPlaceholder])
            page.markup("\">\n</form>\n")
        }
        page.markup("</header>\n")
        if let member { tabs(&page, words, canEdit: member.canEdit) }
        page.markup("<main id=\"main\">\n<p class=\"offline-note\" role=\"status\" hidden data-offline>")
        page.text(words[.offlineNote])
        page.markup("</p>\n")
        if let notice { noticeLine(&page, notice, words) }
        page.markup("\n")
        if heading == .title {
            page.markup("<h1>")
            page.text(title)
            page.markup("</h1>\n")
        }
        page.markup(main)
        page.markup("\n</main>\n<footer class=\"foot\">\n")
        let other: Language = language == .korean ? .english : .korean
        page.markup("<a href=\"?lang=\(other.rawValue)\" lang=\"\(other.rawValue)\" hreflang=\"\(other.rawValue)\">")
        page.markup(other == .korean ? "한국어" : "English")
        page.markup("</a>\n</footer>\n</body>\n</html>\n")
        return page
    }

    /// The bottom tabs, the page's own marked current.
    private func tabs(_ page: inout HTMLWriter, _ words: Words, canEdit: Bool) {
        page.markup("<nav class=\"tabs\" aria-label=\"")
        page.text(words[.mainMenu])
        page.markup("\">\n")
        let tabs: [(Tab, String, String, Word)] = [
            (.home, "/", "🏠", .home), (.timeline, "/timeline", "📖", .timeline), (.write, "/entries/new", "✎", .write),
            (.calendar, "/calendar", "📅", .calendar), (.more, "/more", "☰", .more),
        ]
        for (tab, link, icon, word) in tabs {
            if tab == .write {
                guard canEdit else {
                    page.markup("\n")
                    continue
                }
                page.markup("<a class=\"write\" href=\"\(link)\"")
            } else {
                page.markup("<a href=\"\(link)\"")
            }
            if tab == self.tab { page.markup(" aria-current=\"page\"") }
            page.markup("><span aria-hidden=\"true\">\(icon)</span>")
            page.text(words[word])
            page.markup("</a>\n")
        }
        page.markup("</nav>\n")
    }

    /// What the last form did, with 실행 취소 and the trash for a delete.
    private func noticeLine(_ page: inout HTMLWriter, _ notice: PageNotice, _ words: Words) {
        page.markup("<div class=\"notice\" role=\"status\" data-notice><span>")
        page.text(notice.text)
        page.markup("</span>")
        if let undo = notice.undo {
            page.markup(" <form method=\"post\" action=\"/trash/")
            page.text(undo)
            page.markup("/restore\" class=\"inline-form\"><input type=\"hidden\" name=\"_csrf\" value=\"")
            page.text(reader?.csrf ?? "")
            page.markup("\"><button type=\"submit\" class=\"link-button\">")
            page.text(words[.undo])
            page.markup("</button></form> <a href=\"/trash\">")
            page.text(words[.trash])
            page.markup("</a>")
        }
        page.markup("</div>")
    }
}
