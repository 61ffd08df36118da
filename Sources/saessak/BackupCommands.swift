import ArgumentParser
import Backup
import Diary
import Files
import Foundation
import Persistence
import Photos
import Snapshots

/// `saessak backup`: the whole data folder in one ZIP file, consistent while the server runs (docs/backup.md).
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a backup of a data folder to a ZIP file: all data as JSON and every original photo.",
        discussion: """
            The server may keep running: the data is read in one transaction, photos by their content hash. \
            The resident registration number is left out unless --include-sensitive is given (it is then in the \
            file as plain text: keep such a file as carefully as the data folder). With --family, only that \
            family: its members' accounts and everything it owns, restorable on its own.
            """)

    @OptionGroup var data: DataOptions

    @Argument(help: "The ZIP file to write (replaced if it exists).")
    var output: String

    @Flag(help: "Include the resident registration number (as plain text).")
    var includeSensitive = false

    @Option(help: "Back up only this family (default: the whole data folder).")
    var family: String?

    func run() async throws {
        let database = try await data.openExisting()
        var familyID: FamilyID?
        if let family { familyID = try await database.stores.accounts.family(named: family).id }
        let manifest = try await BackupArchive.write(
            database, photos: try await data.photoStorage(), to: URL(fileURLWithPath: output),
            includeSensitive: includeSensitive, family: familyID, app: "saessak")
        let photos = manifest.files.keys.filter { $0.hasPrefix("photos/") }.count
        print("Wrote \(output): \(manifest.counts["entries"] ?? 0) entries, \(manifest.counts["children"] ?? 0) children, \(photos) photos.")
    }
}

/// `saessak restore`: a backup into a new, empty data folder, after checking every file of it.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup ZIP, or a snapshot (--from), into a new, empty data folder (every checksum is verified first).")

    @OptionGroup var data: DataOptions

    @Argument(help: "The backup ZIP file (none with --from).")
    var input: String?

    @Option(help: ArgumentHelp("Restore a snapshot from this target (a folder or s3://…; the passphrase from SAESSAK_SNAPSHOT_PASSWORD[_FILE]).", valueName: "TARGET"))
    var from: String?

    @Option(help: ArgumentHelp("Which snapshot (its ID from 'saessak snapshots list'; default the newest).", valueName: "ID"))
    var snapshot: String?

    func validate() throws {
        guard (input == nil) != (from == nil) else { throw ValidationError("give a backup ZIP, or --from a snapshot target (not both)") }
        if snapshot != nil, from == nil { throw ValidationError("--snapshot needs --from") }
    }

    func run() async throws {
        var input = input ?? ""
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-restore-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        if let from {
            // The snapshot comes out of restic as a backup folder, and is restored as that backup would be.
            let settings: SnapshotSettings
            do { settings = try SnapshotSettings(target: from) } catch { throw CLIError(error.description) }
            try PrivateFiles.folder(scratch)
            let zip = scratch.appendingPathComponent("snapshot.zip")
            do {
                try await SnapshotRepository(settings: settings, cache: scratch.appendingPathComponent("cache")).export(snapshot, to: zip)
            } catch let failure as SnapshotFailure {
                throw CLIError(failure.description)
            }
            input = zip.path
        }
        do {
            // PostgreSQL takes the rows, object storage the photos; the data folder takes the rest (and keeps its key).
            let postgres = try data.postgres()
            let data = data
            var opener: (@Sendable () async throws -> any DiaryEngine)?
            if postgres != nil { opener = { try await data.openOrCreate() } }
            var photos: (@Sendable () async throws -> any PhotoStorage)?
            if try data.objectStorage() != nil { photos = { try await data.photoStorage() } }
            let manifest = try await BackupArchive.restore(URL(fileURLWithPath: input), into: data.url, database: opener, photos: photos)
            print(
                "Restored \(manifest.counts["entries"] ?? 0) entries from a backup of \(manifest.createdAt) into \(postgres.map(\.description) ?? data.folder).")
        } catch let failure as BackupArchive.Failure {
            throw CLIError(failure.description)
        }
    }
}
