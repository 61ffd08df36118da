import Foundation

public typealias InvitationID = Identifier<Invitation>
public typealias ShareLinkID = Identifier<ShareLink>

/// How many days a link may live, and how many when nobody says.
public struct Lifetime: Sendable {
    public let days: ClosedRange<Int>
    public let `default`: Int

    /// The days asked for (`expiresInDays`), or the default; refused outside the range.
    public func checked(_ asked: Int?) throws(ValidationError) -> Int {
        let value = asked ?? self.default
        guard days.contains(value) else {
            throw ValidationError(field: "expiresInDays", "must be \(days.lowerBound)–\(days.upperBound) (got \(value))")
        }
        return value
    }
}

/// A link that lets one person join a family with a role: single use, until it expires. Only its hash is stored.
public struct Invitation: Hashable, Sendable {
    public let id: InvitationID
    public let familyID: FamilyID
    public let role: Role
    /// Who made it (nil once their account is gone, when it no longer opens): it lives while they may invite (`Grant`).
    public let createdBy: UserID?
    /// Their username, when read for the family's list.
    public let createdByName: String?
    public let createdAt: Date
    public let expiresAt: Date
    public let acceptedAt: Date?

    /// How long an invitation may live: a day to a month; a week unless asked.
    public static let lifetime = Lifetime(days: 1...30, default: 7)

    public init(
        id: InvitationID = InvitationID(), familyID: FamilyID, role: Role, createdBy: UserID?, createdByName: String? = nil, createdAt: Date,
        expiresAt: Date, acceptedAt: Date?
    ) {
        self.id = id
        self.familyID = familyID
        self.role = role
        self.createdBy = createdBy
        self.createdByName = createdByName
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.acceptedAt = acceptedAt
    }
}

/// A read-only link to chosen entries, for people without an account: it shows those entries and their photos,
/// nothing else of the family, until it expires or is revoked. Only its hash is stored.
public struct ShareLink: Hashable, Sendable {
    public let id: ShareLinkID
    public let familyID: FamilyID
    public let label: String?
    public let entryIDs: [EntryID]
    public let createdAt: Date
    public let expiresAt: Date

    public static let lifetime = Lifetime(days: 1...365, default: 30)
    public static let maxEntries = 500

    public init(
        id: ShareLinkID = ShareLinkID(), familyID: FamilyID, label: String?, entryIDs: [EntryID], createdAt: Date,
        expiresAt: Date
    ) {
        self.id = id
        self.familyID = familyID
        self.label = label
        self.entryIDs = entryIDs
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    public static func entries(_ ids: [EntryID]) throws(ValidationError) -> [EntryID] {
        var seen = Set<EntryID>()
        let unique = ids.filter { seen.insert($0).inserted }
        guard (1...maxEntries).contains(unique.count) else {
            throw ValidationError(field: "entryIds", "must name 1–\(maxEntries) entries (got \(unique.count))")
        }
        return unique
    }
}

public typealias CalendarFeedID = Identifier<CalendarFeedLink>

/// A secret, revocable URL a calendar app subscribes to: the family's birthdays, milestones, anniversaries,
/// vaccination due dates and events (and public holidays when asked). Only its hash is stored.
public struct CalendarFeedLink: Hashable, Sendable {
    public let id: CalendarFeedID
    public let familyID: FamilyID
    public let label: String?
    public let includesHolidays: Bool
    public let createdAt: Date

    public init(id: CalendarFeedID = CalendarFeedID(), familyID: FamilyID, label: String?, includesHolidays: Bool, createdAt: Date) {
        self.id = id
        self.familyID = familyID
        self.label = label
        self.includesHolidays = includesHolidays
        self.createdAt = createdAt
    }
}
