import ArgumentParser
import Diary
import DiaryStore
import Foundation
import Importers

/// `saessak import …`: bringing a family's history in from elsewhere (docs/import.md).
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import diaries kept elsewhere. Every import can be tried with --dry-run first.",
        subcommands: [ImportText.self])
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

    @OptionGroup var data: DataOptions
    @OptionGroup var family: FamilyOption

    @Argument(help: "A text file, or a folder of .txt files.")
    var path: String

    @Option(help: "auto (a BOM, else UTF-8 if valid, else CP949), utf-8, utf-16 or cp949.")
    var encoding: TextImport.Encoding = .auto

    @Option(help: "A child the entries are about, by name (repeat for several; default: every child).")
    var child: [String] = []

    @Flag(help: "Read everything and report what would be imported, without writing.")
    var dryRun = false

    @Flag(help: "Print the report as JSON.")
    var json = false

    func run() async throws {
        let database = try data.openExisting()
        let familyID = try await AccountStore(database).family(named: family.family).id
        let children = try await Page.all { try await ChildStore(database).list(family: familyID, after: $0, limit: $1) }
        var chosen = children
        if !child.isEmpty {
            chosen = try child.map { name in
                guard let match = children.first(where: { $0.profile.name == name }) else {
                    throw CLIError("--child: no child named '\(name)' (the family has: \(children.map(\.profile.name).joined(separator: ", ")))")
                }
                return match
            }
        }
        guard !chosen.isEmpty else { throw CLIError("the family has no children yet: add one first (entries are about a child)") }
        var report = TextImport.Report(dryRun: dryRun)
        do {
            let files = try TextImport.files(at: URL(fileURLWithPath: path))
            let items = try TextImport.items(
                from: files, encoding: encoding, children: chosen.map(\.id), report: &report,
                progress: TerminalProgress(total: files.count, label: "읽는 중"))
            let outcome = try await ImportStore(database).importEntries(family: familyID, source: "text", items: items, dryRun: dryRun)
            report.added = outcome.added
            report.duplicates = outcome.duplicates
        } catch let failure as TextImport.Failure {
            throw CLIError(failure.description)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            let verb = dryRun ? "Would import" : "Imported"
            print("\(verb) \(report.added) entries from \(report.files) files (\(report.duplicates) already imported).")
            for line in report.skipped { print("skipped: \(line)") }
            for line in report.warnings { print("warning: \(line)") }
        }
    }
}

extension TextImport.Encoding: ExpressibleByArgument {}
