import DiaryStore
import ArgumentParser
import Foundation
import ObjectStorage
import Persistence
import Photos
import PostgresStore
import Secrets

/// `--data DIR` and `--database URL`, on every command that touches data.
struct DataOptions: ParsableArguments {
    @Option(name: .customLong("data"), help: "The data folder (saessak.sqlite, secret.key, photos/).")
    var folder: String = DataFolder.defaultName

    @Option(
        name: .customLong("database"),
        help: ArgumentHelp(
            "PostgreSQL instead of the data folder's SQLite: postgres://USER@HOST:PORT/DATABASE (also SAESSAK_DATABASE_URL).",
            discussion: "The password comes from SAESSAK_DATABASE_PASSWORD or a file named by SAESSAK_DATABASE_PASSWORD_FILE, never the URL."
        ))
    var database: String?

    @Option(
        name: .customLong("photos"),
        help: ArgumentHelp(
            "Photos in S3-compatible object storage instead of the data folder: s3://BUCKET/PREFIX?endpoint=https://HOST:PORT&region=REGION (also SAESSAK_PHOTOS_URL).",
            discussion: "The keys come from SAESSAK_S3_ACCESS_KEY_ID and SAESSAK_S3_SECRET_ACCESS_KEY (or …_FILE), never the URL."
        ))
    var photos: String?

    static let urlVariable = "SAESSAK_DATABASE_URL"
    static let photosVariable = "SAESSAK_PHOTOS_URL"

    var url: URL { URL(fileURLWithPath: folder, isDirectory: true) }

    /// The PostgreSQL settings when a database URL is given (the option, or the environment), checked.
    func postgres() throws -> PostgresSettings? {
        guard let text = database ?? ProcessInfo.processInfo.environment[Self.urlVariable], !text.isEmpty else { return nil }
        do {
            return try PostgresSettings(url: text)
        } catch {
            throw CLIError("--database: \(error.description)")
        }
    }

    /// Opens the database of an existing data folder (or the PostgreSQL database); commands that read never create a
    /// data folder by mistake.
    func openExisting() async throws -> any DiaryEngine {
        if let settings = try postgres() { return try await open(settings, create: false) }
        guard FileManager.default.fileExists(atPath: url.appendingPathComponent(DiaryDatabase.fileName).path) else {
            throw CLIError("no Saessak data in '\(folder)': start with 'saessak admin create-user --data \(folder) …'")
        }
        return try DiaryDatabase(folder: url)
    }

    /// Opens the data folder (or the PostgreSQL database), creating it on first use.
    func openOrCreate() async throws -> any DiaryEngine {
        if let settings = try postgres() { return try await open(settings, create: true) }
        return try DiaryDatabase(folder: url)
    }

    /// PostgreSQL holds the rows; the data folder still holds the photos and the field-encryption key (unless
    /// SAESSAK_SECRET_KEY gives it), which every server of one database must share.
    private func open(_ settings: PostgresSettings, create: Bool) async throws -> any DiaryEngine {
        if !create, !FileManager.default.fileExists(atPath: url.path) {
            throw CLIError("no Saessak data folder '\(folder)' (it holds the photos and the key beside \(settings))")
        }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        do {
            return try await PostgresDatabase.open(settings, cipher: try FieldCipher.forDataFolder(url), create: create)
        } catch let error as PostgresDatabase.Unreachable {
            throw CLIError(error.description)
        }
    }
}

extension DataOptions {
    /// The object storage settings when a photo store URL is given (the option, or the environment), checked.
    func objectStorage() throws -> S3Settings? {
        guard let text = photos ?? ProcessInfo.processInfo.environment[Self.photosVariable], !text.isEmpty else { return nil }
        return try Self.objectStorage(text, option: "--photos")
    }

    static func objectStorage(_ text: String, option: String) throws -> S3Settings {
        do {
            return try S3Settings(url: text)
        } catch {
            throw CLIError("\(option): \(error.description)")
        }
    }

    /// Where the photos are: the object store (checked at once: bucket, keys), or the data folder's `photos/`.
    func photoStorage() async throws -> any PhotoStorage {
        guard let settings = try objectStorage() else { return try PhotoFolder(dataFolder: url) }
        return try await Self.open(settings, dataFolder: url)
    }

    static func open(_ settings: S3Settings, dataFolder: URL) async throws -> ObjectPhotoStorage {
        do {
            try FileManager.default.createDirectory(at: dataFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            return try await ObjectPhotoStorage.open(settings, dataFolder: dataFolder)
        } catch let error as ObjectPhotoStorage.Unusable {
            throw CLIError(error.description)
        }
    }
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
