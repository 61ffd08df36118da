import ArgumentParser
import Book
import Diary
import Files
import Foundation
import KoreanCalendar
import Photos
import Services

/// `saessak book CHILD --year 2026 OUT`: the book of a year as a PDF for a print shop, or as a ZIP of plain HTML that
/// opens from disk (docs/book.md).
struct BookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "book",
        abstract: "Print a child's (or the family's) year as a PDF a print shop takes, or keep it as plain HTML.",
        discussion: """
            The entries of the year (or of --from … --to …) in date order, month by month, with their dates in both \
            calendars, the children's ages, place and weather, and the photos. As a PDF (--format pdf): photos from \
            their originals at 300 ppi; 백일 and 첫돌 on pages of their own; a cover and a contents page; fonts \
            embedded (Noto CJK). As HTML (--format html): a ZIP of plain pages that any browser opens from disk, \
            with the photos' web copies linking to their originals, the clips, the hearts and the comments. See \
            docs/book.md.
            """)

    @OptionGroup var data: DataOptions
    @OptionGroup var family: FamilyOption

    @Argument(help: "The child: an id from 'saessak children list', the child's name, or 'family' for the whole family.")
    var child: String

    @Argument(help: "The PDF or ZIP to write (replaced if it exists).")
    var output: String

    @Option(help: "The year (default: this year).")
    var year: Int?

    @Option(help: "The first day instead of a year (YYYY-MM-DD; with --to).")
    var from: String?

    @Option(help: "The last day (YYYY-MM-DD; with --from).")
    var to: String?

    @Option(help: "pdf (a book for a print shop) or html (a ZIP of plain pages that open from disk).")
    var format: String = "pdf"

    @Option(help: "The page size: a5 (148 × 210 mm), a4 (210 × 297 mm) or square (210 × 210 mm).")
    var size: String = PageSize.a5.rawValue

    @Flag(help: "Add 3 mm of bleed on every side (when the print shop asks for it).")
    var bleed = false

    @Flag(help: "Print each entry's hearts and comments under it (the HTML archive always has them).")
    var withReactions = false

    @Option(help: "The book's language: ko (Korean) or en (English).")
    var language: String = Language.korean.rawValue

    func validate() throws {
        guard PageSize(rawValue: size) != nil else { throw ArgumentParser.ValidationError("--size '\(size)' is not a5, a4 or square") }
        guard Language(rawValue: language) != nil else { throw ArgumentParser.ValidationError("--language '\(language)' is not ko or en") }
        guard ["pdf", "html"].contains(format) else { throw ArgumentParser.ValidationError("--format '\(format)' is not pdf or html") }
        guard !output.isEmpty else { throw ArgumentParser.ValidationError("name the file to write") }
        _ = try period()
    }

    /// The year asked for, this year, or the days from --from through --to.
    func period() throws -> BookPeriod {
        let asked: Result<BookPeriod, BookError>
        switch (year, from, to) {
        case (nil, nil, nil): asked = Result { () throws(BookError) in try BookPeriod(year: Today.local(Date()).date.year) }
        case (let year?, nil, nil): asked = Result { () throws(BookError) in try BookPeriod(year: year) }
        case (nil, let from?, let to?):
            let first = try Self.day(from, option: "--from"), last = try Self.day(to, option: "--to")
            asked = Result { () throws(BookError) in try BookPeriod(from: first, through: last) }
        case (_?, _, _): throw ArgumentParser.ValidationError("give either --year or --from and --to, not both")
        default: throw ArgumentParser.ValidationError("--from and --to go together")
        }
        switch asked {
        case .success(let period): return period
        case .failure(let error): throw ArgumentParser.ValidationError(error.description)
        }
    }

    static func day(_ text: String, option: String) throws -> SolarDate {
        guard text.count == 10, let date = try? SolarDate(iso: text) else {
            throw ArgumentParser.ValidationError("\(option) '\(text)' is not a date (YYYY-MM-DD)")
        }
        return date
    }

    func run() async throws {
        guard let size = PageSize(rawValue: size), let language = Language(rawValue: language) else { return }
        let database = try await data.openExisting()
        let familyID = try await database.stores.accounts.family(named: family.family).id
        let childID = child == "family" ? nil : try await ChildLookup.find(child, family: familyID, in: database.stores).id
        let html = format == "html"
        let content: BookContent
        do {
            content = try await BookContent.gather(
                family: familyID, child: childID, period: try period(), language: language, reactions: withReactions || html, stores: database.stores)
        } catch let error as BookError {
            throw CLIError(error.description)
        }
        let destination = URL(fileURLWithPath: output)
        // Written beside the destination and moved into place whole: a failed run leaves nothing half-written.
        let partial = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).part")
        defer { try? FileManager.default.removeItem(at: partial) }
        let storage = try await data.photoStorage()
        let summary: String
        do {
            if html {
                let report = try await ArchiveWriter.write(content, to: partial, media: StoredArchiveMedia(storage: storage))
                summary = "\(report.pages) pages, \(report.entries) entries, \(report.photos) photos, \(report.clips) \(report.clips == 1 ? "clip" : "clips")"
                    + (report.photosMissing > 0 ? ", \(report.photosMissing) photo(s) not readable (the page says so)" : "")
                    + (report.clipsWithoutWebCopy > 0 ? ", \(report.clipsWithoutWebCopy) clip(s) without a web copy yet (the original is there)" : "")
            } else {
                let report = try await BookPrinter.print(content, options: BookOptions(size: size, bleed: bleed), to: partial, photos: StoredBookPhotos(storage: storage))
                summary = "\(report.pages) pages, \(report.entries) entries, \(report.photos) photos"
                    + (report.photosMissing > 0 ? ", \(report.photosMissing) photo(s) not readable (a note stands in their place)" : "")
                    + (report.unknownGlyphs > 0 ? ", \(report.unknownGlyphs) character(s) no installed font has (drawn as boxes)" : "")
            }
        } catch let error as BookError {
            throw CLIError(error.description)
        }
        try POSIXFile.syncFile(partial)
        try AtomicFile.move(partial, over: destination)
        print("\(output): \(summary)")
    }
}
