import Foundation

public typealias TrashID = Identifier<TrashItem>

/// What a family member deleted, kept for the family's days of grace (`TrashRetention`) so that one tap puts it
/// back: the item's rows and everything that went with it, as they were (docs/trash.md).
public struct TrashItem: Sendable, Equatable {
    public let id: TrashID
    public let familyID: FamilyID
    public let kind: TrashKind
    /// The ID the item had and gets back.
    public let itemID: String
    /// What the item belonged to (the entry of a photo or comment), when it can only come back beside it.
    public let parent: TrashParent?
    /// A few words to recognise it by: an entry's or memo's title, a comment's beginning.
    public let label: String
    public let deletedBy: UserID?
    /// The username of who deleted it, while their account exists.
    public let deletedByName: String?
    public let deletedAt: Date
    /// The photos and clips it took along (an entry's, in their order), kept on disk until it is purged.
    public let photoIDs: [PhotoID]
    /// Share links that showed the item; they do not show it again when it comes back.
    public let shareLinks: Int
    /// The trash item that holds what it belongs to (its entry, its child), when that is in the trash too: a
    /// restore brings that back first, when asked.
    public var waitsFor: TrashID?

    public init(
        id: TrashID, familyID: FamilyID, kind: TrashKind, itemID: String, parent: TrashParent?, label: String,
        deletedBy: UserID?, deletedByName: String?, deletedAt: Date, photoIDs: [PhotoID], shareLinks: Int
    ) {
        self.id = id
        self.familyID = familyID
        self.kind = kind
        self.itemID = itemID
        self.parent = parent
        self.label = label
        self.deletedBy = deletedBy
        self.deletedByName = deletedByName
        self.deletedAt = deletedAt
        self.photoIDs = photoIDs
        self.shareLinks = shareLinks
        waitsFor = nil
    }

    /// When the sweep deletes it for good.
    public func purgeAt(keepingDays days: Int) -> Date {
        deletedAt.addingTimeInterval(TimeInterval(days) * 86_400)
    }

    /// Days left before the sweep, from `now`, a day begun counting whole (30 just after the delete, 1 on the last
    /// day, 0 when due).
    public func daysLeft(keepingDays days: Int, now: Date) -> Int {
        max(0, Int((purgeAt(keepingDays: days).timeIntervalSince(now) / 86_400).rounded(.up)))
    }
}

/// Who is restoring from the trash: a member (through the web or the API), or whoever runs the command line on the
/// data folder, who may restore anything.
public enum TrashRestorer: Sendable {
    case member(Membership)
    case administrator

    /// Whether they may see and bring back `item`: owners and editors anything; a viewer only what they deleted
    /// themselves (their own comments). The store asks it of every item a restore brings back, the parent it cascades
    /// to included (issue 66: a viewer's trashed comment brought back the entry an owner deleted, child and all).
    public func may(restore item: TrashItem) -> Bool {
        switch self {
        case .administrator: true
        case .member(let member): member.role.includes(.editor) || (item.deletedBy != nil && item.deletedBy == member.userID)
        }
    }
}

/// The kinds of things the trash keeps.
public enum TrashKind: String, Sendable, CaseIterable, Codable {
    case entry
    /// A photo or clip taken out of an entry (the file stays with the entry's other uses).
    case photo
    case memo
    case comment
    /// A child with everything that was only theirs (the entries about no other child among it).
    case child
    /// An event or a visit, with its photos.
    case event
    case anniversary
    /// A growth measurement.
    case measurement
    /// A recorded dose.
    case vaccination
}

/// What a trashed item belonged to.
public struct TrashParent: Sendable, Equatable {
    public let kind: TrashKind
    public let id: String

    public init(kind: TrashKind, id: String) {
        self.kind = kind
        self.id = id
    }
}

/// How long a family's trash keeps things: 30 days unless an owner chose 7–365.
public enum TrashRetention {
    public static let defaultDays = 30
    public static let days = 7...365

    /// A number of days an owner may choose, or a `ValidationError` naming `field`.
    public static func checked(_ days: Int, field: String = "days") throws -> Int {
        guard Self.days.contains(days) else {
            throw ValidationError(field: field, "keep the trash 7 to 365 days")
        }
        return days
    }
}

/// What a restore put back.
public struct TrashRestore: Sendable, Equatable {
    public let item: TrashItem
    /// Things the item named that are gone for good since (a child deleted meanwhile, a member who left), left out.
    public let leftOut: [String]

    public init(item: TrashItem, leftOut: [String]) {
        self.item = item
        self.leftOut = leftOut
    }
}
