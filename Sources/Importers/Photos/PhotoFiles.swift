import Foundation
import Photos
import ZIPReading

/// The photos and clips an import of photos was pointed at: files in folders (searched through), loose files, and
/// the members of ZIP archives (given, or found in a folder). Each is read when asked, a chunk at a time, into a
/// staging file: nothing of a 50 GB import is held in memory but this list. Made and read by one thread at a time,
/// handed from the import's reading thread to the next: `@unchecked Sendable` for that hand-over, as `PhotoIntake`.
final class PhotoFiles: @unchecked Sendable {
    /// One photo or clip of the import, by where it is.
    struct File: Sendable {
        /// The path a person recognises in a report: the file's, or the archive's and the member's.
        let label: String
        let origin: Origin
        /// The folder it is in — on disk, or inside its archive, so that the parts of one Takeout, each a ZIP of the
        /// same folders, make one folder — and its name: how its sidecar and its Live Photo's other half are found.
        let folder: String
        let name: String
        /// When the file was last changed, on the wall clock (`YYYY-MM-DDTHH:MM:SS`): its day when the file itself
        /// says nothing of when it was taken.
        let modified: String?
    }

    enum Origin: Sendable {
        case file(URL)
        case member(archive: Int, SourceArchive.Member)
    }

    private(set) var files: [File] = []
    private var archives: [SourceArchive] = []
    /// JSON files: Google Photos Takeout's sidecars and albums' `metadata.json`.
    private(set) var sidecars: [File] = []
    /// Files that are no photo, clip or sidecar by their name (notes, pages), counted by extension.
    private(set) var leftOut: [String: Int] = [:]

    /// The extensions of the formats Saessak takes, and of photos and clips it does not take (these are read and
    /// refused by name with the reason, where a `.json` beside them is simply not a photo).
    static let mediaExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "heic", "heif", "png", "webp", "mp4", "m4v", "mov", "qt", "webm",
        "gif", "bmp", "tif", "tiff", "dng", "cr2", "nef", "arw", "avi", "3gp", "mkv", "mts", "wmv",
        // A Pixel's motion photo's clip, in Takeouts since 2020 (MPEG-4 inside).
        "mp",
    ]

    /// Finds every file under `paths`; a path that is not there, or an archive that cannot be read, is an
    /// `ImportFailure` naming it (nothing has been written).
    init(paths: [String], zone: TimeZone) throws {
        for path in paths {
            let url = URL(fileURLWithPath: path)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
                throw ImportFailure("\(path): no such file or folder", korean: "\(path): 그런 파일이나 폴더가 없습니다")
            }
            if isFolder.boolValue {
                try addFolder(url, label: path, zone: zone)
            } else {
                try add(url, label: path, zone: zone)
            }
        }
    }

    private func addFolder(_ folder: URL, label: String, zone: TimeZone) throws {
        let keys: [URLResourceKey] = [.isRegularFileKey, .contentModificationDateKey]
        guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
        else { throw ImportFailure("\(label): the folder cannot be read", korean: "\(label): 폴더를 읽을 수 없습니다") }
        var found: [URL] = []
        for case let url as URL in walk where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            found.append(url)
        }
        let base = folder.standardizedFileURL.path
        for url in found.sorted(by: { $0.path < $1.path }) {
            let inside = url.standardizedFileURL.path.hasPrefix(base + "/") ? String(url.standardizedFileURL.path.dropFirst(base.count + 1)) : url.lastPathComponent
            try add(url, label: (label as NSString).appendingPathComponent(inside), zone: zone)
        }
    }

    private func add(_ url: URL, label: String, zone: TimeZone) throws {
        let kind = url.pathExtension.lowercased()
        if kind == "zip" {
            let archive = try ImportArchive.open(url)
            let index = archives.count
            archives.append(archive)
            for member in archive.members.sorted(by: { $0.path < $1.path }) where member.isFile {
                let name = member.name
                guard !name.hasPrefix("."), !member.path.hasPrefix("__MACOSX/") else { continue }
                let folder = member.path.split(separator: "/").dropLast().joined(separator: "/")
                sort(File(label: "\(label): \(member.path)", origin: .member(archive: index, member), folder: folder, name: name, modified: member.modified))
            }
            return
        }
        let changed = (try? url.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate
        sort(File(
            label: label, origin: .file(url), folder: url.deletingLastPathComponent().standardizedFileURL.path, name: url.lastPathComponent,
            modified: changed.map { Self.wallClock($0, zone: zone) }))
    }

    /// A photo or clip, a sidecar, or a file left out, by its extension.
    private func sort(_ file: File) {
        let kind = (file.name as NSString).pathExtension.lowercased()
        if Self.mediaExtensions.contains(kind) {
            files.append(file)
        } else if kind == "json" {
            sidecars.append(file)
        } else {
            leftOut[kind.isEmpty ? "(none)" : "." + kind, default: 0] += 1
        }
    }

    /// A small file's bytes (a sidecar), at most `maxBytes`; nil when it is larger or cannot be read.
    func data(of file: File, maxBytes: Int) -> Data? {
        switch file.origin {
        case .file(let url):
            guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
            defer { try? handle.close() }
            guard let data = try? handle.read(upToCount: maxBytes + 1), data.count <= maxBytes else { return nil }
            return data
        case .member(let index, let member):
            return try? archives[index].data(of: member, maxBytes: UInt64(maxBytes))
        }
    }

    /// Streams a file's bytes into `upload`.
    func fill(_ upload: UploadWriter, from file: File) throws {
        switch file.origin {
        case .file(let url):
            guard let handle = try? FileHandle(forReadingFrom: url) else { throw ImportFailure("\(file.label): cannot be opened", korean: "\(file.label): 열 수 없습니다") }
            defer { try? handle.close() }
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                try chunk.withUnsafeBytes { try upload.write(untyped: $0) }
            }
        case .member(let index, let member):
            try ImportArchive.failing { try archives[index].read(member) { try upload.write(untyped: $0) } }
        }
    }

    /// `date` on the wall clock of `zone`, as `YYYY-MM-DDTHH:MM:SS`.
    static func wallClock(_ date: Date, zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0,
            parts.second ?? 0)
    }
}
