import Services

extension EntryPages {
    /// The timeline's main part: the filters, then a page of months of entry cards or the hits of a search. Written
    /// here and not in a template, as its cards are (`EntryCard.timelineHTML`): it is the page a family opens most,
    /// and through swift-mustache its model was reflected and each name looked up through the context stack with
    /// dynamic casts — with the layout, a sixth of a busy timeline's time (issue 35, `perf` under the bench's four
    /// clients). Every value goes through `HTML.escape`, as the template's did.
    struct TimelinePage {
        let childOptions: [Option]
        var tagOptions: [Option] = []
        let year: String
        let month: String
        /// A filter is set: the filters start open.
        let filtered: Bool
        /// The reader may write (the empty timeline offers to).
        let canEdit: Bool
        var shown: Shown = .entries([])
        /// The next page's address.
        var next: String?

        enum Shown {
            /// Months of cards: each month's title and its cards' markup.
            case entries([(month: String, cards: HTMLWriter)])
            /// A search's hits for the text.
            case hits([Hit], for: String)
        }

        struct Hit {
            let href: String
            let title: String
            /// Markup: the passage with the terms marked (`SearchHitResource`), escaped there.
            let snippet: String
            let isMemo: Bool
        }

        func html(_ words: Words) -> HTMLWriter {
            var page = HTMLWriter(capacity: 4_096 + cardBytes)
            filters(&page, words)
            switch shown {
            case .hits(let hits, let text):
                page.markup("<h2>")
                page.text(words[.searchResults])
                page.markup(": “")
                page.text(text)
                page.markup("”</h2>\n")
                if hits.isEmpty {
                    page.markup("<p class=\"meta\">")
                    page.text(words[.noResults])
                    page.markup("</p>")
                }
                page.markup("\n<ul class=\"list\">\n")
                for hit in hits {
                    page.markup("<li><a href=\"")
                    page.text(hit.href)
                    page.markup("\"><strong>")
                    page.text(hit.title)
                    page.markup("</strong></a>")
                    if hit.isMemo {
                        page.markup(" <span class=\"tag\">")
                        page.text(words[.memo])
                        page.markup("</span>")
                    }
                    page.markup("<p class=\"excerpt\">")
                    page.markup(hit.snippet)
                    page.markup("</p></li>")
                }
                page.markup("\n</ul>\n")
            case .entries(let months):
                if months.isEmpty {
                    page.markup("<p class=\"meta\">")
                    page.text(words[.noEntries])
                    page.markup("</p>")
                    if canEdit {
                        page.markup("<p><a class=\"button\" href=\"/entries/new\">")
                        page.text(words[.writeToday])
                        page.markup("</a></p>")
                    }
                }
                page.markup("\n")
                for (month, cards) in months {
                    page.markup("<section>\n<h2>")
                    page.text(month)
                    page.markup("</h2>\n<ul class=\"list\">\n")
                    page.markup(cards)
                    page.markup("\n</ul>\n</section>\n")
                }
            }
            if let next {
                page.markup("<p class=\"pager\"><a class=\"button secondary\" href=\"")
                page.text(next)
                page.markup("\">")
                page.text(words[.older])
                page.markup("</a></p>")
            }
            page.markup("\n")
            return page
        }

        /// The cards' markup in all, for the page's capacity.
        private var cardBytes: Int {
            guard case .entries(let months) = shown else { return 0 }
            return months.reduce(0) { $0 + $1.cards.bytes.count }
        }

        private func filters(_ page: inout HTMLWriter, _ words: Words) {
            page.markup(filtered ? "<details class=\"card\" open>\n<summary>" : "<details class=\"card\">\n<summary>")
            page.text(words[.filters])
            page.markup("</summary>\n<form class=\"filters\" method=\"get\" action=\"/timeline\">\n<div><label for=\"f-child\">")
            page.text(words[.child])
            page.markup("</label>\n<select id=\"f-child\" name=\"child\">")
            options(&page, childOptions, words)
            page.markup("</select></div>\n<div><label for=\"f-tag\">")
            page.text(words[.tag])
            page.markup("</label>\n<select id=\"f-tag\" name=\"tag\">")
            options(&page, tagOptions, words)
            page.markup("</select></div>\n<div><label for=\"f-year\">")
            page.text(words[.year])
            page.markup("</label>\n<input id=\"f-year\" name=\"year\" type=\"number\" inputmode=\"numeric\" min=\"1900\" max=\"2100\" value=\"")
            page.text(year)
            page.markup("\"></div>\n<div><label for=\"f-month\">")
            page.text(words[.yearMonth])
            page.markup("</label>\n<input id=\"f-month\" name=\"month\" type=\"month\" value=\"")
            page.text(month)
            page.markup("\"></div>\n<div class=\"actions\"><button type=\"submit\">")
            page.text(words[.apply])
            page.markup("</button> <a href=\"/timeline\">")
            page.text(words[.clear])
            page.markup("</a></div>\n</form>\n</details>\n")
        }

        /// A `<select>`'s choices after 전체 (all).
        private func options(_ page: inout HTMLWriter, _ options: [Option], _ words: Words) {
            page.markup("<option value=\"\">")
            page.text(words[.all])
            page.markup("</option>")
            for option in options {
                page.markup("<option value=\"")
                page.text(option.value)
                page.markup(option.selected ? "\" selected>" : "\">")
                page.text(option.name)
                page.markup("</option>")
            }
        }
    }
}
