import Diary
import Foundation
import Photos
import ZIPFoundation

/// What went into an archive.
public struct ArchiveReport: Sendable, Equatable {
    public let pages: Int
    public let entries: Int
    public let photos: Int
    public let clips: Int
    /// Photos whose original could not be read: the page says so in their place.
    public let photosMissing: Int
    /// Clips without a web copy (not made yet, or not possible): the poster and the original are there.
    public let clipsWithoutWebCopy: Int
}

/// Writes a `BookContent` as a ZIP of plain HTML (`ArchivePages`) with its photos and clips: one folder, an
/// `index.html` to open, a page a month, `style.css`, and `photos/` (web copies), `originals/`, `clips/`. A month's
/// files go in as its page is made, so memory stays that of one photo.
public enum ArchiveWriter {
    public static func write(
        _ content: BookContent, to output: URL, media: any ArchiveMediaSource, made: Date = Date(),
        progress: @escaping (_ entriesDone: Int, _ of: Int) -> Void = { _, _ in }
    ) async throws -> ArchiveReport {
        try content.requireEntries()
        let pages = ArchivePages(content: content, made: made)
        let folder = folderName(content)
        let archive: Archive
        do {
            archive = try Archive(url: output, accessMode: .create)
        } catch {
            throw BookError.output("the archive cannot be created at \(output.lastPathComponent): \(error)")
        }
        var photos = 0, clips = 0, missing = 0, withoutWebCopy = 0, done = 0, pageCount = 0
        func add(_ data: Data, at path: String, compressed: Bool) throws {
            try archive.addEntry(
                with: "\(folder)/\(path)", type: .file, uncompressedSize: Int64(data.count), compressionMethod: compressed ? .deflate : .none
            ) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        try add(Data(ArchivePages.css.utf8), at: "style.css", compressed: true)
        let byMonth = Dictionary(grouping: content.entries) { YearMonthKey(year: $0.date.year, month: $0.date.month) }
        for month in pages.months {
            let entries = byMonth[month] ?? []
            var placed: [PhotoID: ArchivedMedia] = [:]
            for item in entries {
                try Task.checkCancellation()
                for photo in item.photos where placed[photo.id] == nil {
                    var files = ArchivedMedia()
                    if let web = try? await media.webCopy(of: photo) {
                        try add(web, at: ArchivePages.photoPath(photo), compressed: false)
                        files.webCopy = ArchivePages.photoPath(photo)
                    }
                    if let original = try? await media.original(of: photo), let format = MediaFormat(mimeType: photo.mimeType) {
                        let path = ArchivePages.originalPath(photo, extension: format.fileExtension)
                        try archive.addEntry(with: "\(folder)/\(path)", fileURL: original.url, compressionMethod: .none)
                        files.original = path
                    }
                    if photo.video != nil {
                        clips += 1
                        if let playable = try? await media.playable(of: photo) {
                            let path = ArchivePages.clipPath(photo, extension: playable.extension)
                            try archive.addEntry(with: "\(folder)/\(path)", fileURL: playable.file.url, compressionMethod: .none)
                            files.clip = path
                        } else {
                            withoutWebCopy += 1
                        }
                    } else {
                        photos += 1
                    }
                    if files.webCopy == nil { missing += 1 }
                    placed[photo.id] = files
                }
                done += 1
                progress(done, content.entries.count)
            }
            try add(Data(pages.month(month, entries: entries, media: placed).utf8), at: ArchivePages.fileName(of: month), compressed: true)
            pageCount += 1
        }
        try add(Data(pages.index().utf8), at: "index.html", compressed: true)
        return ArchiveReport(
            pages: pageCount + 1, entries: content.entries.count, photos: photos, clips: clips, photosMissing: missing,
            clipsWithoutWebCopy: withoutWebCopy)
    }

    /// The archive's one folder, `saessak-2026` (or `saessak-2026-03-01-to-2027-02-28`): ASCII, so that every unzip
    /// tool names it the same; the ZIP's own name says whose it is.
    static func folderName(_ content: BookContent) -> String {
        "saessak-" + (content.period.year.map(String.init) ?? "\(content.period.first.iso)-to-\(content.period.last.iso)")
    }
}
