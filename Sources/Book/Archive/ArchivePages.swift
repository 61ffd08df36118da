import Diary
import Foundation
import KoreanCalendar
import Services

/// The archive's pages as plain HTML that opens from disk (`file://`) in any browser, with no script, no network
/// and nothing of Saessak's: an index of the months, then a page a month with every entry, its photos (web copies
/// linking to the originals) and clips, ages, both calendars, hearts and comments. Every link is relative.
struct ArchivePages {
    let content: BookContent
    let words: BookWords
    let made: String

    init(content: BookContent, made: Date) {
        self.content = content
        words = BookWords(language: content.language)
        self.made = content.language.longDate(Today.local(made).date)
    }

    /// The months with entries, oldest first.
    var months: [YearMonthKey] {
        Set(content.entries.map { YearMonthKey(year: $0.date.year, month: $0.date.month) }).sorted()
    }

    static func fileName(of month: YearMonthKey) -> String { String(format: "%04d-%02d.html", month.year, month.month) }

    static func photoPath(_ photo: Photo) -> String { "photos/\(photo.id).jpg" }
    static func originalPath(_ photo: Photo, extension: String) -> String { "originals/\(photo.id).\(`extension`)" }
    static func clipPath(_ photo: Photo, extension: String) -> String { "clips/\(photo.id).\(`extension`)" }

    // MARK: The index

    func index() -> String {
        let entriesByMonth = Dictionary(grouping: content.entries) { YearMonthKey(year: $0.date.year, month: $0.date.month) }
        var body = "<main>\n<h1>\(escape(content.title))</h1>\n"
        body += "<p class=\"meta\">\(escape(words.counts(entries: content.entries.count, photos: content.photoCount)))</p>\n"
        body += "<h2>\(escape(words.months))</h2>\n"
        for (year, months) in Dictionary(grouping: months, by: \.year).sorted(by: { $0.key < $1.key }) {
            body += "<h3>\(escape(content.language == .korean ? "\(year)년" : "\(year)"))</h3>\n<ul class=\"months\">\n"
            for month in months.sorted() {
                let title = content.language.monthTitle(year: month.year, month: month.month)
                let count = entriesByMonth[month]?.count ?? 0
                body += "<li><a href=\"\(Self.fileName(of: month))\">\(escape(title))</a> · \(escape(words.entries(count)))</li>\n"
            }
            body += "</ul>\n"
        }
        if !content.milestones.isEmpty {
            body += "<h2>\(escape(words.milestones))</h2>\n<ul>\n"
            for (milestone, date) in content.milestones {
                body += "<li>\(escape(words.milestone(milestone))) · <time datetime=\"\(date.iso)\">\(escape(content.language.longDate(date)))</time></li>\n"
            }
            body += "</ul>\n"
        }
        body += "</main>\n"
        return page(title: content.title, body: body)
    }

    // MARK: A month

    func month(_ month: YearMonthKey, entries: [BookEntry], media: [PhotoID: ArchivedMedia]) -> String {
        let title = content.language.monthTitle(year: month.year, month: month.month)
        let all = months
        let position = all.firstIndex(of: month)
        var navigation = "<nav>\n<a href=\"index.html\">\(escape(words.contents))</a>"
        if let position, position > 0 {
            navigation += " · <a href=\"\(Self.fileName(of: all[position - 1]))\" rel=\"prev\">\(escape(words.previousMonth))</a>"
        }
        if let position, position + 1 < all.count {
            navigation += " · <a href=\"\(Self.fileName(of: all[position + 1]))\" rel=\"next\">\(escape(words.nextMonth))</a>"
        }
        navigation += "\n</nav>\n"
        var body = "<header>\n\(navigation)<h1>\(escape(title))</h1>\n</header>\n<main>\n"
        var milestones = content.milestones.filter { $0.date.year == month.year && $0.date.month == month.month }
        for item in entries {
            while let first = milestones.first, first.date <= item.date {
                body += milestone(first.milestone, on: first.date)
                milestones.removeFirst()
            }
            body += entry(item, media: media)
        }
        for (milestone, date) in milestones { body += self.milestone(milestone, on: date) }
        body += "</main>\n<footer>\n\(navigation)</footer>\n"
        return page(title: "\(title) · \(content.title)", body: body)
    }

    private func milestone(_ milestone: Milestone, on date: SolarDate) -> String {
        let name = words.milestone(milestone)
        let line = [content.language.longDate(date), content.child.map { $0.profile.nickname ?? $0.profile.name }].compactMap { $0 }
        return "<section class=\"milestone\">\n<h2>\(escape(name))</h2>\n<p>\(escape(line.joined(separator: " · ")))</p>\n</section>\n"
    }

    private func entry(_ item: BookEntry, media: [PhotoID: ArchivedMedia]) -> String {
        let entry = item.entry
        let title = entry.content.title.isEmpty ? item.dateLine : entry.content.title
        var html = "<article id=\"entry-\(entry.id)\">\n<h2>\(escape(title))</h2>\n"
        html += "<p class=\"meta\"><time datetime=\"\(escape(entry.content.date.iso))\">\(escape(item.dateLine))</time></p>\n"
        if let age = item.ageLine { html += "<p class=\"age\">\(escape(age))</p>\n" }
        html += LightMarkdown.html(entry.content.body)
        if let place = item.placeLine { html += "<p class=\"meta\">\(escape(place))</p>\n" }
        for (photo, caption) in zip(item.photos, item.photoCaptions) {
            html += figure(photo, caption: caption, files: media[photo.id])
        }
        if !item.hearts.isEmpty {
            html += "<p class=\"hearts\"><span aria-label=\"\(escape(words.hearts))\">♥</span> \(escape(item.hearts.joined(separator: ", ")))</p>\n"
        }
        if !item.comments.isEmpty {
            html += "<section class=\"comments\">\n<h3>\(escape(words.comments))</h3>\n<ul>\n"
            for comment in item.comments {
                html += "<li><strong>\(escape(comment.author ?? words.formerMember))</strong> \(escape(comment.text).replacingOccurrences(of: "\n", with: "<br>"))</li>\n"
            }
            html += "</ul>\n</section>\n"
        }
        return html + "</article>\n"
    }

    private func figure(_ photo: Photo, caption: String, files: ArchivedMedia?) -> String {
        guard let files, let web = files.webCopy else {
            return "<figure>\n<p class=\"missing\">\(escape(words.photoMissing))</p>\n<figcaption>\(escape(caption))</figcaption>\n</figure>\n"
        }
        let original = files.original.map { " · <a href=\"\($0)\">\(escape(words.original))</a>" } ?? ""
        if photo.video != nil {
            let player: String
            if let clip = files.clip {
                player = "<video controls preload=\"none\" poster=\"\(web)\" src=\"\(clip)\" aria-label=\"\(escape(words.clip(caption)))\"></video>\n"
            } else {
                player = "<img src=\"\(web)\" alt=\"\(escape(words.clip(caption)))\">\n<p class=\"missing\">\(escape(words.clipNotReady))</p>\n"
            }
            return "<figure>\n\(player)<figcaption>\(escape(caption))\(original)</figcaption>\n</figure>\n"
        }
        let image = "<img src=\"\(web)\" alt=\"\(escape(words.photo(caption)))\" loading=\"lazy\">"
        let linked = files.original.map { "<a href=\"\($0)\">\(image)</a>" } ?? image
        return "<figure>\n\(linked)\n<figcaption>\(escape(caption))\(original)</figcaption>\n</figure>\n"
    }

    // MARK: The frame

    private func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="\(words.htmlLanguage)">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <link rel="stylesheet" href="style.css">
        </head>
        <body>
        \(body)<p class="made">\(escape(words.madeOn(made)))</p>
        </body>
        </html>

        """
    }

    /// Light and plain: the system's fonts, a readable column, photos as wide as it; nothing fetched.
    static let css = """
        :root { color-scheme: light; }
        body { margin: 0 auto; max-width: 42rem; padding: 1rem; font: 1.0625rem/1.7 system-ui, "Noto Sans CJK KR", "Apple SD Gothic Neo", "Malgun Gothic", sans-serif; color: #1f2328; background: #fffdf8; word-break: keep-all; overflow-wrap: anywhere; }
        h1 { font-size: 1.8rem; line-height: 1.3; color: #2f5d33; }
        h2 { font-size: 1.3rem; line-height: 1.4; margin: 0 0 0.3rem; }
        h3 { font-size: 1.05rem; }
        a { color: #1d5b8f; }
        nav { margin: 0.5rem 0; }
        article { border-top: 1px solid #d8d4c8; padding: 1.5rem 0; }
        .meta { color: #57606a; margin: 0; font-size: 0.95rem; }
        .age { color: #2f5d33; margin: 0 0 0.8rem; font-size: 0.95rem; }
        figure { margin: 1rem 0; }
        figure img, figure video { display: block; max-width: 100%; height: auto; border-radius: 4px; }
        figcaption { color: #57606a; font-size: 0.9rem; margin-top: 0.3rem; }
        .missing { background: #f0ede4; padding: 1rem; color: #57606a; }
        .milestone { text-align: center; padding: 2rem 0; border-top: 1px solid #d8d4c8; }
        .milestone h2 { color: #2f5d33; font-size: 1.6rem; }
        .hearts { color: #a3333d; }
        .comments ul { padding-left: 1.2rem; }
        .months { columns: 2; }
        .made { color: #57606a; font-size: 0.85rem; border-top: 1px solid #d8d4c8; padding-top: 1rem; }

        """
}

/// Where a photo's files are in the archive (paths relative to its pages); nil for what could not be read.
struct ArchivedMedia {
    var webCopy: String?
    var original: String?
    var clip: String?
}
