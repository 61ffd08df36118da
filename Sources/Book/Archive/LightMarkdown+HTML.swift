extension LightMarkdown {
    /// A body's light Markdown as HTML, the way the book sets it: paragraphs with their line breaks, bullet and
    /// numbered lists, headings as strong lines (`h3`: under the entry's own `h2`), strong and emphasis. Everything
    /// is escaped text; no markup of the writer's reaches the page.
    static func html(_ body: String) -> String {
        var page = ""
        var openList: String?
        func closeList() {
            if let list = openList { page += "</\(list)>\n" }
            openList = nil
        }
        for block in blocks(body) {
            switch block {
            case .paragraph(let inlines):
                closeList()
                page += "<p>" + html(inlines).replacingOccurrences(of: "\n", with: "<br>\n") + "</p>\n"
            case .heading(let inlines):
                closeList()
                page += "<h3>" + html(inlines) + "</h3>\n"
            case .item(let marker, let inlines):
                let list = marker == "•" ? "ul" : "ol"
                if openList != list {
                    closeList()
                    page += "<\(list)>\n"
                    openList = list
                }
                let value = list == "ol" ? " value=\"\(marker.dropLast())\"" : ""
                page += "<li\(value)>" + html(inlines) + "</li>\n"
            }
        }
        closeList()
        return page
    }

    static func html(_ inlines: [Inline]) -> String {
        inlines.map { inline in
            switch inline {
            case .text(let text): escape(text)
            case .strong(let inner): "<strong>" + html(inner) + "</strong>"
            case .emphasis(let inner): "<em>" + html(inner) + "</em>"
            }
        }.joined()
    }
}
