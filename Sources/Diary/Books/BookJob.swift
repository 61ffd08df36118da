import Foundation
import KoreanCalendar

public typealias BookJobID = Identifier<BookJob>

/// What a family member asked to be made: a child's (or the family's) days as a PDF book or an HTML archive
/// (docs/book.md). Kept with the job as JSON, so that any server can make it.
public struct BookRequest: Sendable, Equatable, Codable {
    public enum Format: String, Sendable, Codable, CaseIterable {
        case pdf, html

        public var fileExtension: String { self == .pdf ? "pdf" : "zip" }
        public var contentType: String { self == .pdf ? "application/pdf" : "application/zip" }
    }

    /// Nil: the whole family.
    public var childID: ChildID?
    public var first: SolarDate
    public var last: SolarDate
    /// Set when the days are one calendar year.
    public var year: Int?
    public var format: Format
    /// The book's page size (`a5`, `a4`, `square`; the PDF only).
    public var size: String
    public var bleed: Bool
    /// Hearts and comments under each entry (the archive has them always).
    public var reactions: Bool
    /// `ko` or `en`.
    public var language: String

    public init(
        childID: ChildID?, first: SolarDate, last: SolarDate, year: Int?, format: Format, size: String, bleed: Bool, reactions: Bool,
        language: String
    ) {
        self.childID = childID
        self.first = first
        self.last = last
        self.year = year
        self.format = format
        self.size = size
        self.bleed = bleed
        self.reactions = reactions
        self.language = language
    }

    private enum CodingKeys: String, CodingKey {
        case childID = "childId", first, last, year, format, size, bleed, reactions, language
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        childID = try container.decodeIfPresent(ChildID.self, forKey: .childID)
        func day(_ key: CodingKeys) throws -> SolarDate {
            let text = try container.decode(String.self, forKey: key)
            guard let date = try? SolarDate(iso: text) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not a date: \(text)")
            }
            return date
        }
        first = try day(.first)
        last = try day(.last)
        year = try container.decodeIfPresent(Int.self, forKey: .year)
        format = try container.decode(Format.self, forKey: .format)
        size = try container.decode(String.self, forKey: .size)
        bleed = try container.decode(Bool.self, forKey: .bleed)
        reactions = try container.decode(Bool.self, forKey: .reactions)
        language = try container.decode(String.self, forKey: .language)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(childID, forKey: .childID)
        try container.encode(first.iso, forKey: .first)
        try container.encode(last.iso, forKey: .last)
        try container.encodeIfPresent(year, forKey: .year)
        try container.encode(format, forKey: .format)
        try container.encode(size, forKey: .size)
        try container.encode(bleed, forKey: .bleed)
        try container.encode(reactions, forKey: .reactions)
        try container.encode(language, forKey: .language)
    }
}

/// A book or archive being made in the background, or made and kept for download a few days.
public struct BookJob: Sendable, Equatable {
    /// How many books a family may have at once: being made (both cores for minutes each), and made and kept for
    /// download (each the size of a year's originals, counted in the family's storage; issue 66: eight requests in a
    /// row left eight).
    public struct Limits: Sendable {
        public let making: Int
        public let kept: Int

        public init(making: Int, kept: Int) {
            self.making = making
            self.kept = kept
        }
    }

    /// Why a new book was not queued.
    public enum Refusal: Error, Sendable, Equatable {
        case busy(Int)
        case full(Int)
    }

    public enum Status: String, Sendable, Codable {
        /// Waiting for a server to take it.
        case queued
        /// A server is making it (`progress` per cent).
        case running
        /// Made: `byteCount` bytes kept until `expiresAt`.
        case ready
        case failed
    }

    public let id: BookJobID
    public let familyID: FamilyID
    /// Who asked (nil once their account is gone).
    public let requestedBy: UserID?
    public let request: BookRequest
    public let status: Status
    public let progress: Int
    /// How many times a server took it: a job whose server died (a restart, a kill) is taken again, up to a limit.
    public let attempts: Int
    public let createdAt: Date
    public let finishedAt: Date?
    public let expiresAt: Date?
    /// Why it failed, in words for the family.
    public let error: String?
    public let byteCount: Int?
    /// The PDF's pages, or the archive's.
    public let pages: Int?

    public init(
        id: BookJobID, familyID: FamilyID, requestedBy: UserID?, request: BookRequest, status: Status, progress: Int, attempts: Int,
        createdAt: Date, finishedAt: Date?, expiresAt: Date?, error: String?, byteCount: Int?, pages: Int?
    ) {
        self.id = id
        self.familyID = familyID
        self.requestedBy = requestedBy
        self.request = request
        self.status = status
        self.progress = progress
        self.attempts = attempts
        self.createdAt = createdAt
        self.finishedAt = finishedAt
        self.expiresAt = expiresAt
        self.error = error
        self.byteCount = byteCount
        self.pages = pages
    }
}

/// The books being made and kept, shared by every server of one database: the queue is the table (a job is claimed
/// with a lease, renewed as it goes; a server that stops lets the lease run out and another takes the job again).
public protocol BookJobStore: Sendable {
    /// A new queued job, unless the family has `limits.making` queued or running already, or `limits.kept` books made
    /// and waiting for download (then the refusal, saying which).
    func create(family: FamilyID, requestedBy: UserID?, request: BookRequest, limits: BookJob.Limits) async throws
        -> Result<BookJob, BookJob.Refusal>
    func job(family: FamilyID, id: BookJobID) async throws -> BookJob?
    /// The family's jobs, newest first.
    func list(family: FamilyID) async throws -> [BookJob]
    /// The oldest job waiting (or whose server's lease ran out) for `worker`; a job taken `maxAttempts` times already
    /// is marked failed on the way instead.
    func claim(worker: String, lease: TimeInterval, maxAttempts: Int) async throws -> BookJob?
    /// Extends the lease and records progress; false when the job is no longer this worker's (deleted, or taken).
    func renew(_ id: BookJobID, worker: String, lease: TimeInterval, progress: Int) async throws -> Bool
    /// Ready, kept until `expiresAt`; false when the job is no longer this worker's.
    func finish(_ id: BookJobID, worker: String, byteCount: Int, pages: Int, expiresAt: Date) async throws -> Bool
    func fail(_ id: BookJobID, worker: String, error: String) async throws
    /// Deletes a family's job (its file is the caller's to delete); false when there is none.
    func delete(family: FamilyID, id: BookJobID) async throws -> Bool
    /// Jobs whose files are due to go: ready ones past `expiresAt`, failed ones finished before `cutoff`. Deleted rows;
    /// their files are the caller's to delete.
    func removeExpired(failedBefore cutoff: Date) async throws -> [BookJob]
}
