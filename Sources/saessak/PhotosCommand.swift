import ArgumentParser
import Crypto
import Foundation
import Logging
import ObjectStorage
import Persistence
import Photos
import Services

/// `saessak photos …`: the photo store itself — moving it, and sweeping what crashes left behind (docs/deploy.md).
struct PhotosCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photos",
        abstract: "List an entry's photos and clips, move photos between the data folder and object storage, or sweep files no diary refers to.",
        subcommands: [PhotosList.self, PhotosMigrate.self, PhotosSweep.self])
}

/// `saessak photos migrate --to s3://…` (or `--to folder`): copies every original, thumbnail and video rendition,
/// verifying each.
struct PhotosMigrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Copy every original, thumbnail and video rendition to another photo store, verifying each; run it again to resume.",
        discussion: """
            From where the photos are now (--photos, or the data folder) to --to: an s3://… URL, or 'folder' for the \
            data folder's photos/. Nothing is deleted from the source, and the source keeps working: the server may \
            run meanwhile. Every original is read back from the target and must hash to its SHA-256 (its name); \
            every thumbnail must read back byte for byte. A file the target already holds is verified, not copied \
            again, so an interrupted run resumes where it stopped. To switch: run it, stop the server, run it again \
            (it copies only what arrived meanwhile), and start the server with the new --photos.
            """)

    @OptionGroup var data: DataOptions

    @Option(help: "Where to copy the photos: s3://BUCKET/PREFIX?endpoint=…&region=… or 'folder' (the data folder).")
    var to: String

    func run() async throws {
        guard FileManager.default.fileExists(atPath: data.url.path) else { throw CLIError("no Saessak data folder '\(data.folder)'") }
        let source = try await data.photoStorage()
        let target: any PhotoStorage
        if to == "folder" {
            target = try PhotoFolder(dataFolder: data.url)
        } else {
            var bucket = try await DataOptions.open(try DataOptions.objectStorage(to, option: "--to"), dataFolder: data.url)
            bucket.cachesThumbnails = false  // what is checked is the bucket, not this machine's cache
            target = bucket
        }
        guard source.location != target.location else { throw CLIError("--to is where the photos are already (\(source.location))") }
        print("Copying photos from \(source.location) to \(target.location).")
        var report = MigrationReport()
        do {
            for original in try await source.listOriginals() {
                do {
                    try await copy(original, from: source, to: target, report: &report)
                } catch {
                    report.failures.append("\(original.path): \(error)")
                }
                if (report.originalsCopied + report.originalsPresent) % 100 == 0 { report.progress() }
            }
            for thumbnail in try await source.listThumbnails() {
                do {
                    try await copy(thumbnail, from: source, to: target, report: &report)
                } catch {
                    report.failures.append("\(thumbnail.path): \(error)")
                }
            }
            for rendition in try await source.listRenditions() {
                do {
                    try await copy(rendition, from: source, to: target, report: &report)
                } catch {
                    report.failures.append("\(rendition.path): \(error)")
                }
            }
        } catch {
            throw CLIError("cannot list the photos of \(source.location): \(error)")
        }
        print(report.summary)
        guard report.failures.isEmpty else {
            for failure in report.failures.prefix(20) { print("failed: \(failure)") }
            throw CLIError("\(report.failures.count) file(s) were not copied; run the same command again to retry them")
        }
    }

    /// Copies one original unless the target holds it already, then reads it back and checks its SHA-256. A copy
    /// there that does not verify (a run cut off, a damaged object) is replaced.
    private func copy(_ original: StoredOriginal, from source: any PhotoStorage, to target: any PhotoStorage, report: inout MigrationReport) async throws {
        guard let here = try await source.openOriginal(sha256: original.sha256, format: original.format) else { return }  // deleted since the listing
        if let there = try await target.openOriginal(sha256: original.sha256, format: original.format) {
            if there.byteCount == here.byteCount, await Self.verified(original, in: target) {
                report.originalsPresent += 1
                return
            }
            await target.delete(sha256: original.sha256, format: original.format)  // its thumbnails are copied again below
            report.replaced += 1
        }
        guard let local = try await source.localOriginal(sha256: original.sha256, format: original.format) else { return }
        // `putOriginal` takes its file away: give it a copy in the target's staging area.
        let staged = try target.stage(limits: PhotoLimits(maxBytes: Int.max))
        staged.abandon()
        try FileManager.default.copyItem(at: local.url, to: staged.url)
        _ = try await target.putOriginal(staged.url, sha256: original.sha256, format: original.format)
        guard await Self.verified(original, in: target) else { throw CLIError("the target's copy does not hash to its name") }
        report.originalsCopied += 1
        report.bytes += here.byteCount
    }

    /// Whether the target's original reads back whole and hashes to its name.
    static func verified(_ original: StoredOriginal, in target: any PhotoStorage) async -> Bool {
        guard let back = try? await target.localOriginal(sha256: original.sha256, format: original.format) else { return false }
        guard let file = LocalPhotoFile(back.url) else { return false }
        return (try? await sha256(of: file)) == original.sha256
    }

    /// Copies one thumbnail unless the target holds the same bytes, then reads it back.
    private func copy(_ thumbnail: StoredThumbnail, from source: any PhotoStorage, to target: any PhotoStorage, report: inout MigrationReport) async throws {
        guard let here = try await source.openThumbnail(sha256: thumbnail.sha256, size: thumbnail.size) else { return }
        let bytes = try await here.readAll()
        if let there = try await target.openThumbnail(sha256: thumbnail.sha256, size: thumbnail.size), try await there.readAll() == bytes {
            report.thumbnailsPresent += 1
            return
        }
        try await target.putThumbnail(bytes, sha256: thumbnail.sha256, size: thumbnail.size)
        guard let back = try await target.openThumbnail(sha256: thumbnail.sha256, size: thumbnail.size), try await back.readAll() == bytes else {
            throw CLIError("the target's copy differs")
        }
        report.thumbnailsCopied += 1
    }

    /// Copies a clip's web rendition unless the target holds the same bytes, streaming it through a scratch file
    /// (a rendition is tens of megabytes), then reads it back.
    private func copy(_ rendition: StoredRendition, from source: any PhotoStorage, to target: any PhotoStorage, report: inout MigrationReport) async throws {
        guard let here = try await source.openRendition(sha256: rendition.sha256) else { return }
        let digest = try await Self.sha256(of: here)
        if let there = try await target.openRendition(sha256: rendition.sha256), there.byteCount == here.byteCount,
            try await Self.sha256(of: there) == digest
        {
            report.renditionsPresent += 1
            return
        }
        let scratch = target.scratchFile(extension: "mp4")
        defer { try? FileManager.default.removeItem(at: scratch) }
        _ = FileManager.default.createFile(atPath: scratch.path, contents: nil, attributes: [.posixPermissions: 0o600])
        let handle = try FileHandle(forWritingTo: scratch)
        do {
            if here.byteCount > 0 { try await here.read(0...(here.byteCount - 1), chunkSize: 1 << 20) { try handle.write(contentsOf: $0) } }
            try handle.close()
        } catch {
            try? handle.close()
            throw error
        }
        try await target.putRendition(scratch, sha256: rendition.sha256)
        guard let back = try await target.openRendition(sha256: rendition.sha256), try await Self.sha256(of: back) == digest else {
            throw CLIError("the target's copy differs")
        }
        report.renditionsCopied += 1
    }

    static func sha256(of file: any StoredPhotoFile) async throws -> String {
        var hasher = SHA256()
        if file.byteCount > 0 { try await file.read(0...(file.byteCount - 1), chunkSize: 1 << 20) { hasher.update(data: $0) } }
        return SignatureV4.hex(hasher.finalize())
    }
}

struct MigrationReport {
    var originalsCopied = 0
    var originalsPresent = 0
    var thumbnailsCopied = 0
    var thumbnailsPresent = 0
    var renditionsCopied = 0
    var renditionsPresent = 0
    /// Copies in the target that did not verify, copied again.
    var replaced = 0
    var bytes = 0
    var failures: [String] = []

    func progress() {
        print("… \(originalsCopied + originalsPresent) originals done")
    }

    var summary: String {
        let megabytes = String(format: "%.1f", Double(bytes) / 1_048_576)
        return "Originals: \(originalsCopied) copied (\(megabytes) MB), \(originalsPresent) already there"
            + (replaced > 0 ? ", \(replaced) damaged copies replaced" : "") + "; "
            + "thumbnails: \(thumbnailsCopied) copied, \(thumbnailsPresent) already there; "
            + "video renditions: \(renditionsCopied) copied, \(renditionsPresent) already there. Every copy was read back and verified."
    }
}

/// `saessak photos sweep`: deletes photo files no diary refers to (what a crash or a killed upload left behind).
struct PhotosSweep: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Delete photo files that no diary refers to, and unfinished uploads (servers do it themselves too).",
        discussion: """
            Every server sweeps at start, and on object storage every hour, taking only what is older than an hour \
            there (another server may be mid-upload). Here, --older-than chooses the age: in the data folder the \
            sweep runs only when no server or import is writing photos; on object storage an age shorter than any \
            upload in progress would delete that upload's file, so use 0 only when every server is stopped.
            """)

    @OptionGroup var data: DataOptions

    @Option(help: "Only files stored longer ago than this: 0, 90s, 30m, 2h or 1d (default: 1h on object storage, 0 in the folder).")
    var olderThan: String?

    func run() async throws {
        let age: TimeInterval
        if let olderThan {
            guard let parsed = Self.duration(olderThan) else {
                throw CLIError("--older-than must be a number with s, m, h or d (for example 30m), not '\(olderThan)'")
            }
            age = parsed
        } else {
            age = try data.objectStorage() == nil ? 0 : PhotoService.sharedGrace
        }
        let database = try await data.openExisting()
        defer { database.close() }
        let photos = try PhotoService(storage: try await data.photoStorage(), store: database.stores.photos, logger: Logger(label: "saessak"))
        guard let swept = try await photos.sweepNow(olderThan: age) else { throw CLIError("a server or an import is writing photos in '\(data.folder)': sweep when it has stopped (servers sweep at start)") }
        print(
            "Swept \(photos.storage.location): \(swept.originals) original(s), \(swept.thumbnails) thumbnail set(s), "
                + "\(swept.renditions) video rendition(s), \(swept.unfinishedUploads) unfinished upload(s).")
    }

    /// `0`, `90s`, `30m`, `2h`, `1d`.
    static func duration(_ text: String) -> TimeInterval? {
        if text == "0" { return 0 }
        guard let unit = text.last, let number = Double(text.dropLast()), number >= 0, number.isFinite else { return nil }
        switch unit {
        case "s": return number
        case "m": return number * 60
        case "h": return number * 3600
        case "d": return number * 86_400
        default: return nil
        }
    }
}
