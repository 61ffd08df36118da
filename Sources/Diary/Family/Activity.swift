import Foundation

public typealias ActivityID = Identifier<Activity>

/// One line of a family's record of who did what (docs/trash.md, "Who did what"): a member made, changed, deleted,
/// restored or purged something, or changed who belongs and how they get in. Kept a year. Never holds a password, a
/// token or a resident number: only what a member sees on the pages anyway (a title, a name, a role).
public struct Activity: Sendable, Equatable {
    public let id: ActivityID
    public let familyID: FamilyID
    /// Who did it; nil once their account is gone (or left out of a backup because they had left the family).
    public let actor: UserID?
    /// Their username, while their account exists.
    public let actorName: String?
    public let at: Date
    public let action: ActivityAction
    public let kind: ActivityKind
    /// What it was done to: the entry's, child's, member's, link's… ID, when it has one.
    public let subjectID: String?
    /// A few words to recognise it by: an entry's title, a child's or member's name, a token's label.
    public let label: String
    /// What a line needs besides: the roles of a change (`editor>viewer`), the version put back, how many items an
    /// emptied trash held. Words the program wrote, never the family's text.
    public let detail: String

    public init(
        id: ActivityID = ActivityID(), familyID: FamilyID, actor: UserID?, actorName: String?, at: Date, action: ActivityAction,
        kind: ActivityKind, subjectID: String?, label: String, detail: String
    ) {
        self.id = id
        self.familyID = familyID
        self.actor = actor
        self.actorName = actorName
        self.at = at
        self.action = action
        self.kind = kind
        self.subjectID = subjectID
        self.label = label
        self.detail = detail
    }

    /// How long the record keeps a line.
    public static let keptFor: TimeInterval = 365 * 86_400

    /// A label is a reminder, not a copy: the first 80 characters of a title or a comment.
    public static let maxLabelLength = 80

    /// `text`'s first line, cut to `maxLabelLength` characters.
    public static func label(_ text: String) -> String { label(title: text, body: "") }

    /// A title, or without one the body's first line, cut to `maxLabelLength` characters (the trash's labels too).
    public static func label(title: String, body: String) -> String {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        let text = trimmed.isEmpty ? body : trimmed
        let line = text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return line.count > maxLabelLength ? String(line.prefix(maxLabelLength - 1)) + "…" : line
    }
}

extension Activity {
    /// "Chrome · Android", "Safari · iPhone": the browser and system a `User-Agent` names, in the words people know;
    /// "?" for what it does not say. Read by looking for known words in its first 512 characters only, so no header
    /// makes it longer or stranger (fuzzed with the `query` target).
    public static func deviceLabel(_ userAgent: String) -> String {
        let agent = userAgent.prefix(512)
        let browsers: [(word: String, name: String)] = [
            ("SamsungBrowser", "Samsung Internet"), ("Edg/", "Edge"), ("Whale", "Whale"), ("OPR/", "Opera"), ("Firefox", "Firefox"),
            ("Chrome", "Chrome"), ("Chromium", "Chromium"), ("Safari", "Safari"), ("curl", "curl"), ("python", "Python"),
        ]
        let systems: [(word: String, name: String)] = [
            ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Windows", "Windows"), ("Mac OS X", "Mac"),
            ("CrOS", "ChromeOS"), ("Linux", "Linux"),
        ]
        let browser = browsers.first { agent.contains($0.word) }?.name ?? "?"
        let system = systems.first { agent.contains($0.word) }?.name ?? "?"
        return "\(browser) · \(system)"
    }
}

/// What was done.
public enum ActivityAction: String, Sendable, CaseIterable, Codable {
    case created
    case edited
    /// Moved to the trash.
    case deleted
    /// Put back from the trash, or an earlier version of an entry put back (`detail`: `version 3`).
    case restored
    /// Deleted for good from the trash (an item, or the whole trash: kind `trash`).
    case purged
    case invited
    case joined
    /// A member's role (`detail`: `editor>viewer`).
    case roleChanged
    /// A member taken out of the family.
    case removed
    /// A share link, an invitation or a token revoked.
    case revoked
    /// A backup of the family downloaded.
    case downloaded
    /// Signed in from a browser not seen before (`label`: the browser and system it said it was).
    case signedIn
}

/// What it was done to.
public enum ActivityKind: String, Sendable, CaseIterable, Codable {
    case entry, photo, memo, comment, child, event, anniversary, measurement, vaccination
    case member, invitation, shareLink, token, backup, device
    /// The whole trash, emptied.
    case trash

    public init(_ kind: TrashKind) {
        switch kind {
        case .entry: self = .entry
        case .photo: self = .photo
        case .memo: self = .memo
        case .comment: self = .comment
        case .child: self = .child
        case .event: self = .event
        case .anniversary: self = .anniversary
        case .measurement: self = .measurement
        case .vaccination: self = .vaccination
        }
    }
}

/// Which lines a list shows: one member's, one kind's, one month's (any combination).
public struct ActivityFilter: Sendable, Equatable {
    public var actor: UserID?
    /// The member by username (compared without regard to case): what an owner's filter names.
    public var actorName: String?
    public var kind: ActivityKind?
    /// The month, in the server's calendar (UTC+9, as the diary's days): `2026-11`.
    public var month: ActivityMonth?

    public init(actor: UserID? = nil, actorName: String? = nil, kind: ActivityKind? = nil, month: ActivityMonth? = nil) {
        self.actor = actor
        self.actorName = actorName
        self.kind = kind
        self.month = month
    }
}

/// A month of the record, `YYYY-MM`, read in Korean time (the family's days are Korean days).
public struct ActivityMonth: Sendable, Equatable, CustomStringConvertible {
    public let year: Int
    public let month: Int

    /// `2026-11`, or a `ValidationError` naming `field`.
    public init(_ text: String, field: String = "month") throws(ValidationError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let year = Int(parts[0]), let month = Int(parts[1]),
            (1900...2999).contains(year), (1...12).contains(month)
        else { throw ValidationError(field: field, "must be a month such as 2026-11 (got '\(String(text.prefix(20)))')") }
        self.year = year
        self.month = month
    }

    public var description: String { String(format: "%04d-%02d", year, month) }

    /// The month's first instant and the next month's, in Korean time.
    public var interval: (start: Date, end: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Asia/Seoul") ?? TimeZone(secondsFromGMT: 9 * 3600) ?? .gmt
        let start = calendar.date(from: DateComponents(year: year, month: month, day: 1)) ?? .distantPast
        let end = calendar.date(byAdding: .month, value: 1, to: start) ?? .distantFuture
        return (start, end)
    }
}
