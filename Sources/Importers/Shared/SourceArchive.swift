import Foundation
import ZIPFoundation

/// The ZIP files imports arrive in (a Day One export, a folder of text diaries).
enum SourceArchive {
    /// Opens a ZIP for reading; one that is not a ZIP or is cut short (no central directory) is refused by name.
    static func open(_ url: URL) throws -> Archive {
        do {
            return try Archive(url: url, accessMode: .read)
        } catch {
            throw ImportFailure("\(url.lastPathComponent): not a ZIP archive, or it is cut short")
        }
    }

    /// The bytes of one file of the archive, its checksum verified.
    static func data(of entry: Entry, in archive: Archive, file: String) throws -> Data {
        var data = Data()
        do {
            _ = try archive.extract(entry, skipCRC32: false) { data.append($0) }
        } catch {
            throw ImportFailure("\(file): \(entry.path) cannot be read from the archive")
        }
        return data
    }
}
