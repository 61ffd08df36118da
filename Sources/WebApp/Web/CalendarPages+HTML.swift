import Services

extension CalendarPages.MonthPage {
    /// The month page's main part, its heading with the arrows first, written here and not in a template (as the cells
    /// are, below): the month was the bench's other page under load, and the template engine's lookups cost it as
    /// much as its cells had (issue 35).
    func html(_ words: Words) -> HTMLWriter {
        var page = HTMLWriter(capacity: 4_096 + weeks.reduce(0) { $0 + $1.bytes.count })
        page.markup("<div class=\"month-nav\">\n")
        arrow(&page, to: previousYear, label: words[.previousYear], "«")
        arrow(&page, to: previousMonth, label: words[.previousMonth], "‹")
        page.markup("<h1>")
        page.text(title)
        page.markup("</h1>\n")
        arrow(&page, to: nextMonth, label: words[.nextMonth], "›")
        arrow(&page, to: nextYear, label: words[.nextYear], "»")
        page.markup("</div>\n\n<table class=\"calendar\">\n<caption class=\"visually-hidden\">")
        page.text(title)
        page.markup("</caption>\n<thead><tr>")
        for (index, name) in weekdays.enumerated() {
            page.markup("<th scope=\"col\" class=\"\(index == 0 ? "red" : index == 6 ? "blue" : "")\">")
            page.text(name)
            page.markup("</th>")
        }
        page.markup("</tr></thead>\n<tbody>\n")
        for week in weeks {
            page.markup("<tr>")
            page.markup(week)
            page.markup("</tr>\n")
        }
        page.markup("</tbody>\n</table>\n<form class=\"actions\" method=\"get\" action=\"/calendar\">\n<input id=\"jump\" aria-label=\"")
        page.text(words[.jumpToMonth])
        page.markup("\" type=\"month\" name=\"month\" value=\"")
        page.text(monthValue)
        page.markup("\" required class=\"narrow\">\n<button type=\"submit\" class=\"secondary\">")
        page.text(words[.go])
        page.markup("</button>\n<a href=\"/calendar/")
        page.text(thisMonth)
        page.markup("\">")
        page.text(words[.thisMonth])
        page.markup("</a>\n</form>\n")
        return page
    }

    private func arrow(_ page: inout HTMLWriter, to month: String, label: String, _ symbol: String) {
        page.markup("<a class=\"button secondary\" href=\"/calendar/")
        page.text(month)
        page.markup("\" aria-label=\"")
        page.text(label)
        page.markup("\">\(symbol)</a>\n")
    }
}

extension CalendarPages.DayCell {
    /// A day of the month grid, written here and not in a template: the template engine read each of the 35–42 cells by
    /// reflection and looked every field up through the context stack with dynamic casts, 42 % of a busy month page's
    /// time (issue 35, `perf` under the bench's four clients). The markup is the one the template had; every value goes
    /// through `HTML.escape` as the template's did.
    func html(_ words: Words) -> String {
        var cell = HTMLWriter(capacity: 512)
        write(into: &cell, words)
        return cell.html
    }

    /// The cell written at the end of `cell` (the month writes a week's cells into one writer).
    func write(into cell: inout HTMLWriter, _ words: Words) {
        cell.markup("<td class=\"")
        cell.text(classes)
        cell.markup("\" data-date=\"")
        cell.text(iso)
        cell.markup("\"><a href=\"/calendar/")
        cell.text(iso)
        cell.markup("\" aria-label=\"")
        cell.text(label)
        if let entryCount {
            cell.markup(", ")
            cell.text(words[.entries])
            cell.markup(" ")
            cell.markup(String(entryCount))
        }
        cell.markup("\"><span class=\"num\">")
        cell.markup(String(day))
        cell.markup("</span>")
        if let entryCount {
            cell.markup("<span class=\"badge\">")
            cell.markup(String(entryCount))
            cell.markup("</span>")
        }
        cell.markup(isTerm ? "\n<span class=\"lunar term\">" : "\n<span class=\"lunar\">")
        cell.text(caption)
        cell.markup("</span>")
        for holiday in holidays {
            cell.markup("<span class=\"holiday\">")
            cell.text(holiday)
            cell.markup("</span>")
        }
        for mark in marks ?? [] {
            cell.markup("<span class=\"dot\">")
            cell.text(mark)
            cell.markup("</span>")
        }
        if let photo {
            cell.markup("<span class=\"day-media\"><img class=\"day-photo\" src=\"")
            cell.text(photo)
            cell.markup("\" alt=\"\" loading=\"lazy\" decoding=\"async\">")
            if let videoBadge {
                cell.markup("<span class=\"video-badge\">")
                cell.text(videoBadge)
                cell.markup("</span>")
            }
            cell.markup("</span>")
        }
        cell.markup("</a></td>")
    }
}
