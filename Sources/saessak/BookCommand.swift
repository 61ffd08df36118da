import ArgumentParser
import Book
import Diary
import Files
import Foundation
import Photos
import Services

/// `saessak book CHILD --year 2026 OUT`: the book of a year as a PDF for a print shop (docs/book.md).
struct BookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "book",
        abstract: "Print a child's (or the family's) year as a PDF a print shop takes.",
        discussion: """
            The entries of the year in date order, month by month, with their dates in both calendars, the children's \
            ages, place and weather, and the photos from their originals at 300 ppi; 백일 and 첫돌 on pages of \
            their own; a cover and a contents page. Fonts are embedded (Noto CJK). See docs/book.md for printing.
            """)

    @OptionGroup var data: DataOptions
    @OptionGroup var family: FamilyOption

    @Argument(help: "The child: an id from 'saessak children list', the child's name, or 'family' for the whole family.")
    var child: String

    @Argument(help: "The PDF to write (replaced if it exists).")
    var output: String

    @Option(help: "The year (default: this year).")
    var year: Int?

    @Option(help: "The page size: a5 (148 × 210 mm), a4 (210 × 297 mm) or square (210 × 210 mm).")
    var size: String = PageSize.a5.rawValue

    @Flag(help: "Add 3 mm of bleed on every side (when the print shop asks for it).")
    var bleed = false

    @Flag(help: "Print each entry's hearts and comments under it.")
    var withReactions = false

    @Option(help: "The book's language: ko (Korean) or en (English).")
    var language: String = Language.korean.rawValue

    func validate() throws {
        guard PageSize(rawValue: size) != nil else { throw ArgumentParser.ValidationError("--size '\(size)' is not a5, a4 or square") }
        guard Language(rawValue: language) != nil else { throw ArgumentParser.ValidationError("--language '\(language)' is not ko or en") }
        if let year, !(1900...2100).contains(year) { throw ArgumentParser.ValidationError("--year \(year) is not a year between 1900 and 2100") }
        guard !output.isEmpty else { throw ArgumentParser.ValidationError("name the PDF to write") }
    }

    func run() async throws {
        guard let size = PageSize(rawValue: size), let language = Language(rawValue: language) else { return }
        let database = try await data.openExisting()
        let familyID = try await database.stores.accounts.family(named: family.family).id
        let childID = child == "family" ? nil : try await ChildLookup.find(child, family: familyID, in: database.stores).id
        let year = year ?? Today.local(Date()).date.year
        let content: BookContent
        do {
            content = try await BookContent.gather(family: familyID, child: childID, year: year, language: language, reactions: withReactions, stores: database.stores)
        } catch let error as BookError {
            throw CLIError(error.description)
        }
        let destination = URL(fileURLWithPath: output)
        // Written beside the destination and moved into place whole: a failed run leaves no half a PDF.
        let partial = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).part")
        defer { try? FileManager.default.removeItem(at: partial) }
        let report: BookReport
        do {
            report = try await BookPrinter.print(
                content, options: BookOptions(size: size, bleed: bleed), to: partial, photos: StoredBookPhotos(storage: try await data.photoStorage()))
        } catch let error as BookError {
            throw CLIError(error.description)
        }
        try POSIXFile.syncFile(partial)
        try AtomicFile.move(partial, over: destination)
        print("\(output): \(report.pages) pages, \(report.entries) entries, \(report.photos) photos"
            + (report.photosMissing > 0 ? ", \(report.photosMissing) photo(s) not readable (a note stands in their place)" : "")
            + (report.unknownGlyphs > 0 ? ", \(report.unknownGlyphs) character(s) no installed font has (drawn as boxes)" : ""))
    }
}
