import ArgumentParser
import Diary
import Foundation
import Importers
import Persistence
import Photos

/// `saessak import …`: bringing a family's history in from elsewhere (docs/import.md).
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import diaries kept elsewhere. Every import can be tried with --dry-run first.",
        subcommands: [ImportText.self, ImportIPhotoDiary.self, ImportDayOne.self, ImportPhotos.self])
}

/// What every import takes besides its source.
struct ImportOptions: ParsableArguments {
    @OptionGroup var data: DataOptions
    @OptionGroup var family: FamilyOption

    @Flag(help: "Read everything and report what would be imported, without writing.")
    var dryRun = false

    @Flag(help: "Print the report as JSON.")
    var json = false

    /// Opens the data folder and finds the family and its children.
    func open() async throws -> (database: any DiaryEngine, family: FamilyID, children: [Child]) {
        let database = try await data.openExisting()
        let familyID = try await database.stores.accounts.family(named: family.family).id
        let children = try await Page.all { try await database.stores.children.list(family: familyID, after: $0, limit: $1) }
        return (database, familyID, children)
    }

    /// The children named by `--child` (default: every child; at least one is needed).
    func chosen(_ names: [String], from children: [Child]) throws -> [ChildID] {
        guard !children.isEmpty else { throw CLIError("the family has no children yet: add one first (entries are about a child)") }
        guard !names.isEmpty else { return children.map(\.id) }
        return try names.map { name in
            guard let match = children.first(where: { $0.profile.name == name }) else {
                throw CLIError("--child: no child named '\(name)' (the family has: \(children.map(\.profile.name).joined(separator: ", ")))")
            }
            return match.id
        }
    }

    func run(
        source: String, read: @escaping @Sendable (any DiaryEngine, FamilyID, [Child], PhotoIntake, inout ImportReport) throws -> ImportBatch
    ) async throws {
        let (database, familyID, children) = try await open()
        let report: ImportReport
        do {
            report = try await ImportRun.run(
                source: source, stores: database.stores, photos: try await data.photoStorage(), family: familyID,
                now: database.clock.now(), dryRun: dryRun
            ) {
                intake, report in try read(database, familyID, children, intake, &report)
            }
        } catch let failure as ImportFailure {
            throw CLIError(failure.description)
        }
        show(report)
    }

    /// The report on standard output: lines for a person, or JSON.
    func show(_ report: ImportReport) {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: (try? encoder.encode(report)) ?? Data(), as: UTF8.self))
            return
        }
        print(dryRun ? "Dry run: nothing was written." : "Imported from \(report.files) file(s).")
        if let days = report.days, let first = days.first, let last = days.last {
            print("days: \(days.count), \(first.date) to \(last.date)")
            if dryRun {
                for day in days {
                    let into = day.intoEntry == true ? ": the photos go into it" : "; --add-to-existing puts the photos into it"
                    let already = day.entriesThatDay > 0
                        ? " (the diary has \(day.entriesThatDay) entr\(day.entriesThatDay == 1 ? "y" : "ies") that day\(into))" : ""
                    print("  \(day.date): \(day.photos) photo(s), \(day.clips) clip(s)\(already)")
                }
            }
        }
        for line in report.summary { print(line) }
        for line in report.skipped { print("skipped: \(line)") }
        for line in report.warnings { print("warning: \(line)") }
    }
}

struct ImportText: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "text",
        abstract: "Import a diary kept as text files (UTF-8, UTF-16 with a BOM, or CP949/EUC-KR).",
        discussion: """
            Entries start at date headings such as '2010년 8월 15일', '2010.8.15', '2010-08-15' or '# 2010-08-15' \
            (a weekday after the date is fine); a file without headings is one day, dated by its name \
            (2010-08-15.txt). Entries are about every child of the family unless --child names some, and are \
            tagged 가져옴. One transaction: all or nothing. Importing the same files again adds nothing twice.
            """)

    @OptionGroup var options: ImportOptions

    @Argument(help: "A text file, a folder of .txt files, or a ZIP of them.")
    var path: String

    @Option(help: "auto (a BOM, else UTF-8 if valid, else CP949), utf-8, utf-16 or cp949.")
    var encoding: TextImport.Encoding = .auto

    @Option(help: "A child the entries are about, by name (repeat for several; default: every child).")
    var child: [String] = []

    func run() async throws {
        try await options.run(source: "text") { [options, child, path, encoding] _, _, children, _, report in
            let chosen = try options.chosen(child, from: children)
            var source = URL(fileURLWithPath: path)
            let unpacked = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-text-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: unpacked) }
            if source.pathExtension.lowercased() == "zip" {
                try TextImport.unpack(zip: source, into: unpacked)
                source = unpacked
            }
            let files = try TextImport.files(at: source)
            var batch = ImportBatch()
            batch.entries = try TextImport.items(
                from: files, encoding: encoding, children: chosen, report: &report,
                progress: TerminalProgress(total: files.count, label: "읽는 중"))
            return batch
        }
    }
}

struct ImportIPhotoDiary: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iphotodiary",
        abstract: "Import the old iPhotoDiary / BabyPhotoDiary iPhone app's store (NewIPhotoDiary.sqlite).",
        discussion: """
            Children (solar or lunar birthdays, profile photo, birth height and weight), diaries with their photos, \
            place and weather, events, hospital visits and vaccinations, and the anniversaries of AnnData.plist. \
            The 백일/첫돌 events and birthdays the app stored are left out: Saessak works them out. Diaries or events \
            of no child are imported for every child and listed. One transaction: all or nothing.
            """)

    @OptionGroup var options: ImportOptions

    @Argument(help: "The app's Core Data store, NewIPhotoDiary.sqlite.")
    var store: String

    @Option(help: "The app's AnnData.plist (anniversaries).")
    var anniversaries: String?

    func run() async throws {
        try await options.run(source: IPhotoDiaryImport.source) { [store, anniversaries] database, family, children, intake, report in
            try IPhotoDiaryImport.read(
                store: URL(fileURLWithPath: store), anniversaries: anniversaries.map { URL(fileURLWithPath: $0) },
                existing: children, family: family, now: database.clock.now(), intake: intake, report: &report,
                progress: { TerminalProgress(total: $0, label: "일기") })
        }
    }
}

struct ImportDayOne: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dayone",
        abstract: "Import a Day One JSON export (the ZIP with Journal.json and photos/).",
        discussion: """
            Every journal in the export: text (the first line becomes the title), tags, starred (tag 즐겨찾기), \
            location, weather, time zone and photos. Entries are about every child unless --child names some. \
            One transaction: all or nothing. Importing the same export again adds nothing twice.
            """)

    @OptionGroup var options: ImportOptions

    @Argument(help: "The export's ZIP file.")
    var export: String

    @Option(help: "A child the entries are about, by name (repeat for several; default: every child).")
    var child: [String] = []

    func run() async throws {
        try await options.run(source: DayOneImport.source) { [options, child, export] _, family, children, intake, report in
            try DayOneImport.read(
                export: URL(fileURLWithPath: export), children: try options.chosen(child, from: children), family: family,
                intake: intake, report: &report, progress: { TerminalProgress(total: $0, label: "Day One") })
        }
    }
}

struct ImportPhotos: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photos",
        abstract: "Make entries of photos and clips: a camera folder, a laptop's pictures, ZIPs of them.",
        discussion: """
            One entry a day, with that day's photos and clips in the order they were taken (the time from the photo's \
            EXIF or the clip, on the clock where it was taken; a file that says nothing is filed under the day it was \
            last changed), the place of the first one with GPS, tagged 가져옴. A Google Photos Takeout (its ZIPs, or \
            the folder they unpack to) brings each photo's time, place and description from its JSON sidecar and its \
            albums as tags; a Live Photo's clip follows its still; edited copies stay out unless --with-edited. \
            Entries are about every child unless --child names some. Try --dry-run first: it lists the days and the diary's entries on them. Each day is \
            written whole or not at all; a photo already in the diary is never stored twice, so running the same \
            import again adds nothing and an import cut short goes on where it stopped.
            """)

    @OptionGroup var options: ImportOptions

    @Argument(help: "Folders (searched through), photo or clip files, and ZIPs of them.")
    var paths: [String]

    @Option(help: "A child the entries are about, by name (repeat for several; default: every child).")
    var child: [String] = []

    @Option(help: "The language of the entries' titles: ko (사진 3장) or en (3 photos).")
    var language: PhotoImport.Language = .korean

    @Flag(help: "Bring Google Photos' edited copies (IMG_0001-edited.JPG) too, beside their originals.")
    var withEdited = false

    @Flag(help: "A day the diary already has an entry on: add its photos to that entry (the day's last) instead of making one.")
    var addToExisting = false

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("name at least one folder, file or ZIP of photos") }
    }

    func run() async throws {
        let (database, family, children) = try await options.open()
        let report: ImportReport
        do {
            report = try await PhotoImport.run(
                paths: paths, stores: database.stores, storage: try await options.data.photoStorage(), family: family,
                children: try options.chosen(child, from: children), now: database.clock.now(), dryRun: options.dryRun, language: language,
                withEdited: withEdited, addToExisting: addToExisting)
        } catch let failure as ImportFailure {
            throw CLIError(failure.description)
        }
        options.show(report)
    }
}

extension PhotoImport.Language: ExpressibleByArgument {}

extension TextImport.Encoding: ExpressibleByArgument {}
