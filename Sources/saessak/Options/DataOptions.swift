import ArgumentParser
import DiaryStore
import Foundation

/// `--data DIR`, on every command that touches data.
struct DataOptions: ParsableArguments {
    @Option(name: .customLong("data"), help: "The data folder (saessak.sqlite, secret.key, photos/).")
    var folder: String = DiaryDatabase.defaultFolder

    var url: URL { URL(fileURLWithPath: folder, isDirectory: true) }

    /// Opens the database of an existing data folder; commands that read never create one by mistake.
    func openExisting() throws -> DiaryDatabase {
        guard FileManager.default.fileExists(atPath: url.appendingPathComponent(DiaryDatabase.fileName).path) else {
            throw CLIError("no Saessak data in '\(folder)': start with 'saessak admin create-user --data \(folder) …'")
        }
        return try DiaryDatabase(folder: url)
    }

    /// Opens the data folder, creating it on first use.
    func openOrCreate() throws -> DiaryDatabase { try DiaryDatabase(folder: url) }
}

/// `--family NAME`, on commands that act on one family.
struct FamilyOption: ParsableArguments {
    @Option(help: "The family to act on (default: the only family in the data folder).")
    var family: String?
}

/// `--json`, on commands whose output scripts read.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print JSON (the API's shapes) instead of text.")
    var json = false
}

/// A failure to report to the person at the terminal, as is.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
