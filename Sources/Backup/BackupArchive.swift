import Crypto
import Diary
import DiaryStore
import Files
import Foundation
import Persistence
import Photos
import ZIPFoundation
import ZIPReading

/// A backup of one data folder as a ZIP file (format: docs/backup.md):
/// - `manifest.json`: format and version, the app, the schema's migrations, counts, and the SHA-256 of every file;
/// - `data/<table>.json`: every backed-up table's rows (`TableDump`), keys sorted, so equal data gives equal bytes;
/// - `photos/<sha256>.<ext>`: every original photo, named by its content.
public enum BackupArchive {
    public static let format = "saessak-backup"
    public static let version = 1

    public struct Manifest: Codable, Equatable, Sendable {
        public var format: String
        public var version: Int
        public var app: String
        public var schema: [String]
        public var createdAt: String
        public var includesSensitive: Bool
        /// The one family a family backup holds (its ID); nil for a whole server's backup.
        public var family: String?
        public var counts: [String: Int]
        /// Path in the archive → SHA-256 (hex) of its bytes.
        public var files: [String: String]
    }

    public enum Failure: Error, CustomStringConvertible, Equatable {
        case unreadable(String)
        case damaged(String)
        case notEmpty(String)
        case incompatible(String)
        case photoMissing(String)

        public var description: String {
            switch self {
            case .unreadable(let detail): "the backup cannot be read: \(detail)"
            case .damaged(let detail): "the backup is damaged: \(detail)"
            case .notEmpty(let path): "'\(path)' is not empty: restore into a new, empty folder (and database)"
            case .incompatible(let detail): "the backup does not fit this version of Saessak: \(detail)"
            case .photoMissing(let sha): "photo \(sha) went away while the backup was made"
            }
        }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return encoder
    }()

    // MARK: Writing

    /// Writes a backup of `database` and its photos to `destination` (through a temporary file renamed at the end).
    /// A photo deleted while the backup runs makes this attempt fail; it is tried again, three times in all.
    @discardableResult
    public static func write(
        _ database: any DiaryEngine, photos: any PhotoStorage, to destination: URL, includeSensitive: Bool, family: FamilyID? = nil,
        credentialsOf: UserID? = nil, app: String, now: Date = Date()
    ) async throws -> Manifest {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await writeOnce(
                    database, photos: photos, to: destination, includeSensitive: includeSensitive, family: family,
                    credentialsOf: credentialsOf, app: app, now: now)
            } catch Failure.photoMissing(let sha) where attempt < 3 {
                _ = sha
                continue
            }
        }
    }

    private static func writeOnce(
        _ database: any DiaryEngine, photos: any PhotoStorage, to destination: URL, includeSensitive: Bool, family: FamilyID?,
        credentialsOf: UserID?, app: String, now: Date
    ) async throws -> Manifest {
        let partial = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).partial")
        let scratch = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).tables")
        try? FileManager.default.removeItem(at: partial)
        try? FileManager.default.removeItem(at: scratch)
        defer {
            try? FileManager.default.removeItem(at: partial)
            try? FileManager.default.removeItem(at: scratch)
        }
        // The rows go to a file per table as they are read (one snapshot), then into the archive: never held whole.
        try PrivateFiles.folder(scratch)
        let tableFiles = TableFiles(folder: scratch)
        try await database.dump(includeSensitive: includeSensitive, family: family, credentialsOf: credentialsOf, into: tableFiles)
        let (tables, photoRows) = try tableFiles.finish()
        let archive = try Archive(url: partial, accessMode: .create)
        try PrivateFiles.file(partial)  // the diary, and resident numbers when asked: 0600 wherever it is written
        var files: [String: String] = [:]
        for table in tables {
            let path = "data/\(table.table).json"
            try archive.addEntry(with: path, fileURL: table.file, compressionMethod: .deflate)
            try? FileManager.default.removeItem(at: table.file)
            files[path] = table.sha256
        }
        for (sha, mime) in photoRows {
            guard let format = MediaFormat(mimeType: mime) else { throw Failure.damaged("a photo row without its content hash or type") }
            let path = "photos/\(sha).\(format.fileExtension)"
            guard files[path] == nil else { continue }  // the same bytes in two families are one file
            guard let source = try await photos.localOriginal(sha256: sha, format: format) else { throw Failure.photoMissing(sha) }
            try archive.addEntry(with: path, fileURL: source.url, compressionMethod: .none)
            files[path] = sha
        }
        let manifest = Manifest(
            format: format, version: version, app: app, schema: try await database.schemaVersion(),
            createdAt: ISO8601DateFormatter().string(from: now), includesSensitive: includeSensitive, family: family?.description,
            counts: Dictionary(uniqueKeysWithValues: tables.map { ($0.table, $0.rows) }), files: files)
        try add(try encoder.encode(manifest), at: "manifest.json", to: archive, compressed: true)
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        if FileManager.default.fileExists(atPath: destination.path) { try FileManager.default.removeItem(at: destination) }
        try FileManager.default.moveItem(at: partial, to: destination)
        return manifest
    }

    private static func add(_ data: Data, at path: String, to archive: Archive, compressed: Bool) throws {
        try archive.addEntry(
            with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: compressed ? .deflate : .none
        ) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
    }

    // MARK: Reading

    /// Opens a backup and checks it whole before anything is written: the manifest, every file's SHA-256, and that
    /// the archive holds exactly the files the manifest lists.
    public static func verify(_ source: URL) throws -> (archive: SourceArchive, manifest: Manifest) {
        let archive: SourceArchive
        do {
            archive = try SourceArchive.open(source)
        } catch {
            throw Failure.unreadable("\(source.lastPathComponent) is not a ZIP file, or it is cut short")
        }
        guard archive.hasUniquePaths else { throw Failure.damaged("it holds two files of one name") }
        guard let entry = archive.member("manifest.json") else { throw Failure.damaged("it has no manifest.json") }
        let manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: try read(entry, from: archive))
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure.damaged("manifest.json is not a Saessak manifest")
        }
        guard manifest.format == format else { throw Failure.incompatible("it is not a Saessak backup") }
        guard manifest.version <= version else {
            throw Failure.incompatible("format version \(manifest.version) is newer than this Saessak reads (\(version))")
        }
        var seen = Set<String>()
        for entry in archive.members where entry.isFile && entry.path != "manifest.json" {
            guard let expected = manifest.files[entry.path] else { throw Failure.damaged("\(entry.path) is not in the manifest") }
            var hasher = SHA256()
            do {
                try archive.read(entry) { hasher.update(bufferPointer: $0) }
            } catch {
                throw Failure.damaged("\(entry.path) cannot be read")
            }
            guard hex(hasher.finalize()) == expected else { throw Failure.damaged("\(entry.path) does not match its checksum") }
            seen.insert(entry.path)
        }
        if let missing = Set(manifest.files.keys).subtracting(seen).sorted().first {
            throw Failure.damaged("\(missing) is missing")
        }
        return (archive, manifest)
    }

    /// Restores a verified backup into `folder`, which must be new or empty; on any failure the folder is left as
    /// it was found (empty). The data goes into the folder's SQLite database, or into `database` (PostgreSQL), which
    /// must hold no diary yet and is written in one transaction; the photos go into the folder's `photos/`, or into
    /// the store `photos` opens (object storage: there, a failed restore's photos are orphans for the sweep).
    /// `database` and `photos` open their targets when the checks have passed (they may make the data folder).
    @discardableResult
    public static func restore(
        _ source: URL, into folder: URL, database: (@Sendable () async throws -> any DiaryEngine)? = nil,
        photos openPhotos: (@Sendable () async throws -> any PhotoStorage)? = nil
    ) async throws -> Manifest {
        let (archive, manifest) = try verify(source)
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        guard existing.isEmpty else { throw Failure.notEmpty(folder.path) }
        // A backup from an older schema is written into that schema, then migrated forward like any old database.
        guard let last = manifest.schema.last, Array(DiaryDatabase.migrations.prefix(manifest.schema.count)) == manifest.schema else {
            throw Failure.incompatible(
                "it was made with schema \(manifest.schema.last ?? "?"), which this Saessak (\(DiaryDatabase.migrations.last ?? "?")) does not know")
        }
        // Another engine takes the backup's rows straight from the archive when they are of this version's schema;
        // those of an older one go through a scratch SQLite database of their own schema first, migrated forward
        // there, and come out with their sensitive values in plain text for the target to seal with its own key.
        let current = manifest.schema == DiaryDatabase.migrations
        let scratch = database == nil || current ? nil : FileManager.default.temporaryDirectory.appendingPathComponent("saessak-restore-\(UUID().uuidString)")
        defer { if let scratch { try? FileManager.default.removeItem(at: scratch) } }
        var target: (any DiaryEngine)?
        defer { target?.close() }
        do {
            if let scratch { try PrivateFiles.folder(scratch) }
            target = try await database?()
            if let target, try await !target.isEmpty() { throw Failure.notEmpty(target.location) }
            let rows = try ArchiveTables(source)
            let photos: any PhotoStorage = try await openPhotos?() ?? PhotoFolder(dataFolder: folder)
            let staging = folder.appendingPathComponent("restore-staging")
            try PrivateFiles.folder(staging)
            defer { try? FileManager.default.removeItem(at: staging) }
            for entry in archive.members where entry.isFile && entry.path.hasPrefix("photos/") {
                let name = String(entry.path.dropFirst("photos/".count))
                let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
                guard parts.count == 2, let format = MediaFormat(fileExtension: parts[1]) else {
                    throw Failure.damaged("\(entry.path) is not a photo of a known type")
                }
                let file = staging.appendingPathComponent(UUID().uuidString)
                guard FileManager.default.createFile(atPath: file.path, contents: nil) else { throw Failure.unreadable("cannot write \(file.path)") }
                let handle = try FileHandle(forWritingTo: file)
                defer { try? handle.close() }
                try archive.read(entry) { bytes in try handle.write(contentsOf: bytes) }
                _ = try await photos.putOriginal(file, sha256: parts[0], format: format)
            }
            if let target, scratch == nil {
                try await target.load(from: rows)
            } else {
                // The folder's own database, or the scratch one: of the backup's schema, then migrated forward.
                let database = try DiaryDatabase(folder: scratch ?? folder, schema: last)
                defer { if scratch != nil { database.close() } }
                try await database.load(from: rows)
                if !current {
                    // Made by an older Saessak: the later migrations, then the search documents again (they may read
                    // columns the backup's schema lacked, such as the entries' place regions).
                    try database.migrateToLatest()
                    _ = try await database.stores.search.reindex()
                }
                if let target {
                    try await target.load(from: database.pages())
                }
            }
            return manifest
        } catch {
            // Leave the folder as it was found: empty.
            for item in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(item))
            }
            throw error
        }
    }

    private static func read(_ entry: SourceArchive.Member, from archive: SourceArchive) throws -> Data {
        do {
            return try archive.data(of: entry, maxBytes: 1 << 31)
        } catch {
            throw Failure.damaged("\(entry.path) cannot be read (\(error))")
        }
    }

    static func hex(_ digest: SHA256.Digest) -> String { digest.map { String(format: "%02x", $0) }.joined() }
}
