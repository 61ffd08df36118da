import Diary
import Foundation
import KoreanCalendar
import Photos
import Services

/// How a book is printed.
public struct BookOptions: Sendable {
    public var size: PageSize
    /// 3 mm more on every side for the shop to cut off.
    public var bleed: Bool

    public init(size: PageSize = .a5, bleed: Bool = false) {
        self.size = size
        self.bleed = bleed
    }
}

/// What was printed.
public struct BookReport: Sendable, Equatable {
    public let pages: Int
    public let entries: Int
    public let photos: Int
    /// Photos whose original could not be read: a framed note stands in their place.
    public let photosMissing: Int
    /// Characters no installed font could draw (boxes in the PDF): 0 with Noto CJK installed.
    public let unknownGlyphs: Int
}

/// Prints a `BookContent` as a PDF, a page at a time: the cover, the contents, each month from a new page with its
/// entries (date in both calendars, the children's ages, title, body, place and weather, photos at print
/// resolution with captions), and 백일 and 첫돌 on pages of their own where they fall. The pages are laid out twice
/// with the same rules: once to learn where each month begins (for the contents), then to draw. Memory stays that of
/// one page's photos: each is read, placed and let go.
public enum BookPrinter {
    public static func print(
        _ content: BookContent, options: BookOptions, to output: URL, photos: any BookPhotoSource,
        progress: @escaping (_ page: Int, _ of: Int) -> Void = { _, _ in }
    ) async throws -> BookReport {
        try content.requireEntries()
        let geometry = PageGeometry(size: options.size, bleed: options.bleed)
        let document = try PrintDocument(path: output.path, width: geometry.width, height: geometry.height)
        document.metadata(title: content.title, author: nil, creator: "Saessak")
        let plan = Typesetter(document: document, geometry: geometry, content: content, size: options.size, photos: nil)
        try await plan.run(contents: nil)
        let drawing = Typesetter(document: document, geometry: geometry, content: content, size: options.size, photos: photos)
        drawing.progress = { page in progress(page, plan.pageNumber) }
        try await drawing.run(contents: plan.contents)
        try document.check()
        try document.close()
        return BookReport(
            pages: drawing.pageNumber, entries: content.entries.count, photos: content.photoCount, photosMissing: drawing.photosMissing,
            unknownGlyphs: drawing.unknownGlyphs)
    }
}

/// One pass over the book: places everything page by page, drawing only when it has a photo source.
final class Typesetter {
    let document: PrintDocument
    let geometry: PageGeometry
    let content: BookContent
    let photos: (any BookPhotoSource)?
    let fonts: Fonts
    var drawing: Bool { photos != nil }
    var progress: (Int) -> Void = { _ in }

    private(set) var pageNumber = 1
    var y: Double
    var pageHasContent = false
    var contents: [(title: String, page: Int)] = []
    private(set) var photosMissing = 0
    private(set) var unknownGlyphs = 0

    init(document: PrintDocument, geometry: PageGeometry, content: BookContent, size: PageSize, photos: (any BookPhotoSource)?) {
        self.document = document
        self.geometry = geometry
        self.content = content
        self.photos = photos
        self.fonts = Fonts(size: size)
        y = geometry.content.y
    }

    var words: BookWords { BookWords(language: content.language) }
    var area: Rect { geometry.content }
    var remaining: Double { area.maxY - y }

    // MARK: The book

    func run(contents planned: [(title: String, page: Int)]?) async throws {
        try await cover()
        newPage()
        try contentsPage(planned ?? [])
        var milestones = content.milestones[...]
        let months = Dictionary(grouping: content.entries) { YearMonthKey(year: $0.date.year, month: $0.date.month) }
        for month in months.keys.sorted() {
            guard let entries = months[month], let first = entries.first else { continue }
            // A milestone before the month's first entry comes before the month's heading, not under it.
            while let next = milestones.first, next.date <= first.date {
                milestones.removeFirst()
                try milestonePage(next.milestone, on: next.date)
            }
            startPage()
            let title = content.language.monthTitle(year: month.year, month: month.month)
            contents.append((title, pageNumber))
            if drawing { document.outline(title) }
            try place(escape(title), font: fonts.month, colour: .accent, after: fonts.size * 1.6)
            for entry in entries {
                while let next = milestones.first, next.date <= entry.date {
                    milestones.removeFirst()
                    try milestonePage(next.milestone, on: next.date)
                }
                try await place(entry)
            }
        }
        for next in milestones { try milestonePage(next.milestone, on: next.date) }
        try growthPages()
        endPage()
    }

    private func cover() async throws {
        var top = geometry.trim.y + geometry.trim.height * 0.12
        if let cover = content.cover {
            let box = Rect(x: area.x, y: top, width: area.width, height: area.height * 0.55)
            let rect = fitted(cover, in: box)
            if drawing { try await drawPhoto(cover, in: rect) }
            top = rect.maxY + fonts.size * 2.5
        } else {
            top = geometry.trim.y + geometry.trim.height * 0.35
        }
        y = top
        try place(escape(content.title), font: fonts.cover, colour: .ink, align: .centre, after: fonts.size)
        let counts = words.counts(entries: content.entries.count, photos: content.photoCount)
        try place(escape(counts), font: fonts.meta, colour: .grey, align: .centre, after: 0)
    }

    private func contentsPage(_ planned: [(title: String, page: Int)]) throws {
        try place(escape(words.contents), font: fonts.month, colour: .accent, after: fonts.size * 1.6)
        // The plan's pages, or placeholders of the same width while planning: the page is the same either way.
        let rows = planned.isEmpty ? Dictionary(grouping: content.entries) { YearMonthKey(year: $0.date.year, month: $0.date.month) }.keys.sorted()
            .map { (content.language.monthTitle(year: $0.year, month: $0.month), 0) } + content.milestones.map { (words.milestone($0.milestone), 0) }
            + (hasGrowth ? [(words.growth, 0)] : []) : planned
        for row in rows {
            guard let left = document.text(escape(row.0), font: fonts.body, width: area.width - fonts.size * 4),
                  let right = document.text(row.1 > 0 ? "\(row.1)" : "000", font: fonts.body, width: area.width, align: .right)
            else { throw BookError.output("the contents could not be laid out") }
            let height = max(left.height, right.height)
            if remaining < height, pageHasContent { newPage() }
            if drawing {
                left.draw(x: area.x, y: y, .ink)
                if row.1 > 0 { right.draw(x: area.x, y: y, .ink) }
            }
            y += height + fonts.size * 0.4
            pageHasContent = true
        }
    }

    private func milestonePage(_ milestone: Milestone, on date: SolarDate) throws {
        startPage()
        let title = words.milestone(milestone)
        contents.append((title, pageNumber))
        if drawing { document.outline(title) }
        y = geometry.trim.y + geometry.trim.height * 0.38
        try place(escape(title), font: fonts.cover, colour: .accent, align: .centre, after: fonts.size)
        let line = [content.language.longDate(date), content.child.map { $0.profile.nickname ?? $0.profile.name }].compactMap { $0 }.joined(separator: " · ")
        try place(escape(line), font: fonts.meta, colour: .grey, align: .centre, after: 0)
        y = area.maxY  // the page is the milestone's alone
    }

    // MARK: An entry

    private func place(_ item: BookEntry) async throws {
        try Task.checkCancellation()  // a job stopped (the server shutting down, the job deleted) stops here
        // The heading lines stay together and with at least the body's first lines.
        let header = [
            (escape(item.dateLine), fonts.meta, Colour.grey),
        ] + (item.ageLine.map { [(escape($0), fonts.meta, Colour.accent)] } ?? []) + [
            (keepingWords(item.entry.content.title), fonts.title, Colour.ink),
        ]
        let laid = try header.map { line in
            guard let text = document.text(line.0, font: line.1, width: area.width) else {
                throw BookError.output("an entry's heading could not be laid out")
            }
            return (text, line.2)
        }
        let headerHeight = laid.reduce(0) { $0 + $1.0.height } + fonts.size * 0.5
        if remaining < headerHeight + fonts.size * 4.5, pageHasContent { newPage() }
        for (text, colour) in laid {
            countUnknown(text)
            if drawing { text.draw(x: area.x, y: y, colour) }
            y += text.height
        }
        y += fonts.size * 0.5
        pageHasContent = true

        for block in LightMarkdown.blocks(item.entry.content.body) {
            switch block {
            case .paragraph(let inlines):
                try place(markup(inlines), font: fonts.body, colour: .ink, align: .justified, after: fonts.size * 0.6)
            case .heading(let inlines):
                try place("<b>" + markup(inlines) + "</b>", font: fonts.body, colour: .ink, after: fonts.size * 0.3)
            case .item(let marker, let inlines):
                try place(markup(inlines), font: fonts.body, colour: .ink, indent: fonts.size * 1.6, marker: marker, after: fonts.size * 0.3)
            }
        }
        if let line = item.placeLine {
            try place(escape(line), font: fonts.meta, colour: .grey, after: fonts.size * 0.6)
        }
        for (photo, caption) in zip(item.photos, item.photoCaptions) {
            try await place(photo, caption: caption)
        }
        if !item.hearts.isEmpty {
            try place(escape("♥ " + item.hearts.joined(separator: ", ")), font: fonts.meta, colour: .measurement, after: fonts.size * 0.3)
        }
        for comment in item.comments {
            let author = "<b>" + escape(comment.author ?? words.formerMember) + "</b> "
            try place(author + keepingWords(comment.text), font: fonts.meta, colour: .ink, after: fonts.size * 0.3)
        }
        y += fonts.size * 1.8
    }

    private func place(_ photo: Photo, caption: String) async throws {
        guard let captionText = document.text(escape(caption), font: fonts.caption, width: area.width, align: .centre) else {
            throw BookError.output("a caption could not be laid out")
        }
        let box = Rect(x: area.x, y: 0, width: area.width, height: area.height * 0.55)
        var rect = fitted(photo, in: box)
        let needed = rect.height + fonts.size * 0.4 + captionText.height + fonts.size
        if remaining < needed, pageHasContent { newPage() }
        rect.y = y
        if drawing {
            try await drawPhoto(photo, in: rect)
            captionText.draw(x: area.x, y: rect.maxY + fonts.size * 0.4, .grey)
        }
        countUnknown(captionText)
        y = rect.maxY + fonts.size * 0.4 + captionText.height + fonts.size
        pageHasContent = true
    }

    /// The photo's print image at 300 ppi of its place (or its own pixels, when fewer), or a framed note.
    private func drawPhoto(_ photo: Photo, in rect: Rect) async throws {
        let width = Int((rect.width / 72 * 300).rounded(.up)), height = Int((rect.height / 72 * 300).rounded(.up))
        var image: PrintImage?
        do {
            image = try await photos?.printImage(of: photo, width: width, height: height)
        } catch {
            image = nil
        }
        guard let image else {
            photosMissing += 1
            document.fill(rect, .tint)
            if let note = document.text(escape(words.photoMissing), font: fonts.caption, width: rect.width, align: .centre) {
                note.draw(x: rect.x, y: rect.y + (rect.height - note.height) / 2, .grey)
            }
            return
        }
        try document.jpeg(image.jpeg, pixels: (image.width, image.height), in: rect)
    }

    // MARK: Text that flows

    /// Places `markup` at the cursor, line by line, going on to new pages as needed; `marker` (• or 3.) hangs in the
    /// indent of a list item.
    func place(
        _ markup: String, font: Font, colour: Colour, align: PrintDocument.Alignment = .left, indent: Double = 0, marker: String? = nil,
        after space: Double
    ) throws {
        guard let text = document.text(markup, font: font, width: area.width - indent, align: align) else {
            throw BookError.output("a paragraph could not be laid out")
        }
        countUnknown(text)
        var line = 0
        while line < text.lineCount {
            var end = line
            while end < text.lineCount, text.height(of: line..<(end + 1)) <= remaining { end += 1 }
            if end == line {
                if pageHasContent {
                    newPage()
                    continue
                }
                end = line + 1  // a line taller than the page: placed anyway
            }
            if drawing {
                text.draw(line..<end, x: area.x + indent, y: y, colour)
                if line == 0, let marker, let mark = document.text(escape(marker), font: font, width: indent) {
                    mark.draw(x: area.x, y: y, colour)
                }
            }
            y += text.height(of: line..<end)
            pageHasContent = true
            line = end
        }
        y += space
    }

    // MARK: Pages

    /// A page of its own for what comes next: a new one unless the current one is still empty.
    func startPage() {
        if pageHasContent { newPage() }
    }

    func newPage() {
        endPage()
        pageNumber += 1
        progress(pageNumber)
        y = area.y
        pageHasContent = false
    }

    /// The page number at the foot (not on the cover), and the page done.
    private func endPage() {
        guard drawing else { return }
        if pageNumber > 1, let number = document.text("\(pageNumber)", font: fonts.caption, width: geometry.trim.width, align: .centre) {
            number.draw(x: geometry.trim.x, y: geometry.footerY, .grey)
        }
        document.nextPage()
    }

    private func countUnknown(_ text: PrintDocument.Text) {
        if drawing { unknownGlyphs += text.unknownGlyphs }
    }

    /// `photo` scaled to fit `box` (never past it), centred across it, at the box's top.
    private func fitted(_ photo: Photo, in box: Rect) -> Rect {
        let width = Double(photo.width > 0 ? photo.width : 4), height = Double(photo.height > 0 ? photo.height : 3)
        let scale = min(box.width / width, box.height / height)
        let size = (width: width * scale, height: height * scale)
        return Rect(x: box.x + (box.width - size.width) / 2, y: box.y, width: size.width, height: size.height)
    }
}

/// A month as a sortable key.
struct YearMonthKey: Hashable, Comparable {
    let year: Int
    let month: Int

    static func < (a: Self, b: Self) -> Bool { (a.year, a.month) < (b.year, b.month) }
}

/// The fonts of a book: Noto Serif CJK KR for reading, Noto Serif CJK KR for the lines around it (Debian's
/// fonts-noto-cjk; fontconfig finds them by name and falls back for anything they lack).
struct Fonts {
    /// The body's size in points: 9.5 on A5, 11 on the larger pages.
    let size: Double
    let body, title, meta, caption, month, cover: Font

    init(size page: PageSize) {
        let size = page == .a5 ? 9.5 : 11
        self.size = size
        func points(_ value: Double) -> String { String(format: "%.1f", value) }
        body = Font(description: "Noto Serif CJK KR \(points(size))", lineSpacing: 1.6)
        title = Font(description: "Noto Serif CJK KR Bold \(points(size * 1.35))", lineSpacing: 1.3)
        meta = Font(description: "Noto Serif CJK KR \(points(size * 0.8))", lineSpacing: 1.4)
        caption = Font(description: "Noto Serif CJK KR \(points(size * 0.75))", lineSpacing: 1.3)
        month = Font(description: "Noto Serif CJK KR Bold \(points(size * 2.1))", lineSpacing: 1.2)
        cover = Font(description: "Noto Serif CJK KR Bold \(points(size * 2.8))", lineSpacing: 1.2)
    }
}
