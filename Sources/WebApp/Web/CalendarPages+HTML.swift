import Services

extension CalendarPages.DayCell {
    /// A day of the month grid, written here and not in `calendar-month.mustache`: the template engine read each of the
    /// 35–42 cells by reflection and looked every field up through the context stack with dynamic casts, 42 % of a
    /// busy month page's time (issue 35, `perf` under the bench's four clients). The markup is the one the template
    /// had; every value goes through `HTML.escape` as the template's did.
    func html(_ words: Words) -> String {
        var cell = HTMLWriter(capacity: 512)
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
            cell.markup(" \(entryCount)")
        }
        cell.markup("\"><span class=\"num\">\(day)</span>")
        if let entryCount { cell.markup("<span class=\"badge\">\(entryCount)</span>") }
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
        return cell.html
    }
}
