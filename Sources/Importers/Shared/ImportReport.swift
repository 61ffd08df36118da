import Diary
import ZIPReading

/// What an import found and did, for people and (`--json`) scripts. Kinds are children, entries, events,
/// anniversaries, photos and measurements.
public struct ImportReport: Codable, Sendable, Equatable {
    public var source: String
    public var dryRun: Bool
    /// Files read (text files, journals of an export, the store and its plist).
    public var files = 0
    /// Records read from the source, per kind.
    public var found: [String: Int] = [:]
    /// Records written (in a dry run: that would have been written), per kind.
    public var added: [String: Int] = [:]
    /// Records an earlier import of the same source already brought, per kind.
    public var duplicates: [String: Int] = [:]
    /// Records left out, each with where it is and why.
    public var skipped: [String] = []
    /// Things imported but worth a look (damage in the source, a guess the importer had to make).
    public var warnings: [String] = []
    /// An import of photos: the days it makes entries of (or, in a dry run, would), in order.
    public var days: [Day]?

    /// A day of an import of photos: what it brings, how many entries the diary has that day already, and (true)
    /// whether its photos go into one of them instead of an entry of their own (`--add-to-existing`).
    public struct Day: Codable, Sendable, Equatable {
        public let date: String
        public let photos: Int
        public let clips: Int
        public let entriesThatDay: Int
        public let intoEntry: Bool?
    }

    /// Whether `skipped` and `warnings` are written in Korean (the 가져오기 page in Korean) rather than English (the
    /// command line, the page in English). Not part of the report's JSON.
    public var inKorean = false

    private enum CodingKeys: String, CodingKey { case source, dryRun, files, found, added, duplicates, skipped, warnings, days }

    public init(source: String, dryRun: Bool, inKorean: Bool = false) {
        self.source = source
        self.dryRun = dryRun
        self.inKorean = inKorean
    }

    /// A line of the report in its language.
    func say(_ english: String, _ korean: String) -> String { inKorean ? korean : english }

    /// Something imported but worth a look, in the report's language.
    mutating func warn(_ english: String, _ korean: String) { warnings.append(say(english, korean)) }

    /// Something left out, with why, in the report's language.
    mutating func skip(_ english: String, _ korean: String) { skipped.append(say(english, korean)) }

    mutating func count(_ kind: String, _ number: Int = 1) { found[kind, default: 0] += number }

    mutating func record(_ outcome: ImportOutcome) {
        added.merge(outcome.added, uniquingKeysWith: +)
        duplicates.merge(outcome.duplicates, uniquingKeysWith: +)
        for record in outcome.childGone {
            let kind = record.kind == .entry ? say("entry", "일기") : say("event", "일정")
            skip("\(kind) '\(record.title)' (\(record.date.iso)): its child was deleted after an earlier import",
                 "\(kind) '\(record.title)' (\(record.date.iso)): 예전에 가져온 뒤 아이가 삭제되어 가져오지 않았습니다")
        }
    }

    /// The kinds of record, in the order reports list them.
    public static let kinds = ["children", "entries", "events", "anniversaries", "photos", "measurements"]

    /// Per kind the report has anything about: found, added and duplicates.
    public var rows: [(kind: String, found: Int, added: Int, duplicates: Int)] {
        Self.kinds.compactMap { kind in
            let row = (kind: kind, found: found[kind] ?? 0, added: added[kind] ?? 0, duplicates: duplicates[kind] ?? 0)
            return row.found + row.added + row.duplicates > 0 ? row : nil
        }
    }

    /// One line per kind for a terminal: "entries: 12 added, 2 already imported (14 in the source)".
    public var summary: [String] {
        rows.map { row in
            "\(row.kind): \(row.added) \(dryRun ? "to add" : "added")"
                + (row.duplicates > 0 ? ", \(row.duplicates) already imported" : "") + " (\(row.found) in the source)"
        }
    }
}

/// An import that cannot go on: the message names the file, the record and the field. Nothing has been written.
/// `description` is English (the command line, the pages in English); `korean`, where given, says the same for the
/// pages in Korean — the file, record and field named as the source names them. Equal when their English is.
public struct ImportFailure: Error, CustomStringConvertible, Equatable {
    public let description: String
    public let korean: String?

    public init(_ description: String, korean: String? = nil) {
        self.description = description
        self.korean = korean
    }

    init(_ error: ArchiveError) { self.init(error.description, korean: error.korean) }

    /// The message in Korean when there is one and it is asked for, else in English.
    public func text(inKorean: Bool) -> String { inKorean ? korean ?? description : description }

    public static func == (left: ImportFailure, right: ImportFailure) -> Bool { left.description == right.description }

    /// How the iPhotoDiary reader's child process hands a failure to its parent on one line of its error output.
    public var line: String { korean.map { "\(description)\(Self.separator)\($0)" } ?? description }

    init(line: Substring) {
        let parts = line.split(separator: Self.separator, maxSplits: 1, omittingEmptySubsequences: false)
        self.init(String((parts.first ?? "").prefix(2000)), korean: parts.dropFirst().first.map { String($0.prefix(2000)) })
    }

    private static let separator: Character = "\u{1F}"  // the unit separator: never in a message
}
