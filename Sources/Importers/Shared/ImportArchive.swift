import Foundation
import ZIPReading

/// The importers' view of an uploaded ZIP: `SourceArchive`, whose errors become `ImportFailure`s (the kind an
/// import reports to its user and the web shows as a 422).
enum ImportArchive {
    static func open(_ url: URL) throws -> SourceArchive { try failing { try SourceArchive.open(url) } }

    static func data(of member: SourceArchive.Member, in archive: SourceArchive, maxBytes: UInt64 = SourceArchive.maxMemberBytes) throws -> Data {
        try failing { try archive.data(of: member, maxBytes: maxBytes) }
    }

    static func failing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ArchiveError {
            throw ImportFailure(error)
        }
    }
}
