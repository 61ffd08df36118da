import Diary
import Files
import Foundation
import Persistence
import Photos
import ZIPFoundation

/// A backup as a folder instead of a ZIP — `manifest.json`, `data/<table>.json`, `photos/<sha256>.<ext>`, the same
/// files and manifest as `BackupArchive.write` — kept up to date in place: what a snapshot hands to restic
/// (docs/backup.md, "Snapshots"). Photos already there stay untouched (their names are their contents), so restic
/// finds them unchanged and reads only what is new; photos no row uses any more go.
public enum BackupFolder {
    /// Brings `folder` up to the database's present state and returns its manifest. The tables are dumped in one
    /// read transaction (one moment of the diary); photos are hard-linked from the data folder (no copy, no change to
    /// the stored file) or, from object storage, downloaded once. Files are written beside their names and renamed:
    /// a folder a crash left half-made is made whole by the next run.
    @discardableResult
    public static func update(
        _ database: any DiaryEngine, photos: any PhotoStorage, folder: URL, includeSensitive: Bool, app: String, now: Date = Date()
    ) async throws -> BackupArchive.Manifest {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await updateOnce(database, photos: photos, folder: folder, includeSensitive: includeSensitive, app: app, now: now)
            } catch BackupArchive.Failure.photoMissing where attempt < 3 {
                continue  // a photo deleted while the tables were read: read them again
            }
        }
    }

    private static func updateOnce(
        _ database: any DiaryEngine, photos: any PhotoStorage, folder: URL, includeSensitive: Bool, app: String, now: Date
    ) async throws -> BackupArchive.Manifest {
        let files = FileManager.default
        let scratch = folder.appendingPathComponent(".tables")
        let data = folder.appendingPathComponent("data")
        let photoFolder = folder.appendingPathComponent("photos")
        try? files.removeItem(at: scratch)
        defer { try? files.removeItem(at: scratch) }
        for made in [folder, scratch, data, photoFolder] { try PrivateFiles.folder(made) }
        let tableFiles = TableFiles(folder: scratch)
        try await database.dump(includeSensitive: includeSensitive, family: nil, credentialsOf: nil, into: tableFiles)
        let (tables, photoRows) = try tableFiles.finish()
        var manifestFiles: [String: String] = [:]
        var wanted: Set<String> = []
        for (sha, mime) in photoRows {
            guard let format = MediaFormat(mimeType: mime) else { throw BackupArchive.Failure.damaged("a photo row without its content hash or type") }
            let name = "\(sha).\(format.fileExtension)"
            guard wanted.insert(name).inserted else { continue }
            manifestFiles["photos/\(name)"] = sha
            let target = photoFolder.appendingPathComponent(name)
            if files.fileExists(atPath: target.path) { continue }
            guard let source = try await photos.localOriginal(sha256: sha, format: format) else { throw BackupArchive.Failure.photoMissing(sha) }
            let partial = photoFolder.appendingPathComponent(".\(name).partial")
            try? files.removeItem(at: partial)
            do { try files.linkItem(at: source.url, to: partial) } catch { try files.copyItem(at: source.url, to: partial) }
            try files.moveItem(at: partial, to: target)
        }
        for name in try files.contentsOfDirectory(atPath: photoFolder.path) where !wanted.contains(name) {
            try files.removeItem(at: photoFolder.appendingPathComponent(name))
        }
        var tableNames: Set<String> = []
        for table in tables {
            let name = "\(table.table).json"
            tableNames.insert(name)
            let target = data.appendingPathComponent(name)
            if files.fileExists(atPath: target.path) { try files.removeItem(at: target) }
            try files.moveItem(at: table.file, to: target)
            manifestFiles["data/\(name)"] = table.sha256
        }
        for name in try files.contentsOfDirectory(atPath: data.path) where !tableNames.contains(name) {
            try files.removeItem(at: data.appendingPathComponent(name))
        }
        let manifest = BackupArchive.Manifest(
            format: BackupArchive.format, version: BackupArchive.version, app: app, schema: try await database.schemaVersion(),
            createdAt: ISO8601DateFormatter().string(from: now), includesSensitive: includeSensitive, family: nil,
            counts: Dictionary(uniqueKeysWithValues: tables.map { ($0.table, $0.rows) }), files: manifestFiles)
        try AtomicFile.write(try BackupArchive.encoder.encode(manifest), to: folder.appendingPathComponent("manifest.json"), permissions: 0o600)
        return manifest
    }

    /// Removes what `update` wrote of the diary's rows (the tables and the manifest), keeping the photos, which are
    /// links to files the data folder holds anyway and which the next update would otherwise link again: a copy of
    /// the data folder between snapshots holds no table in plain text (issue 66: resident numbers staged 0644 and kept).
    public static func removeTables(_ folder: URL) {
        for name in [".tables", "data", "manifest.json"] {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// The folder as a backup ZIP (`BackupArchive`'s format; photos stored as they are): how a snapshot read back
    /// from restic is restored, through the same checks as any backup.
    public static func zip(_ folder: URL, to destination: URL) throws {
        try? FileManager.default.removeItem(at: destination)
        let archive = try Archive(url: destination, accessMode: .create)
        let manifest = folder.appendingPathComponent("manifest.json")
        guard FileManager.default.fileExists(atPath: manifest.path) else {
            throw BackupArchive.Failure.unreadable("the snapshot holds no manifest.json: it is not a Saessak snapshot")
        }
        try archive.addEntry(with: "manifest.json", fileURL: manifest, compressionMethod: .deflate)
        for (sub, method) in [("data", CompressionMethod.deflate), ("photos", .none)] {
            let inner = folder.appendingPathComponent(sub)
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: inner.path)) ?? []).sorted() where !name.hasPrefix(".") {
                try archive.addEntry(with: "\(sub)/\(name)", fileURL: inner.appendingPathComponent(name), compressionMethod: method)
            }
        }
    }
}
