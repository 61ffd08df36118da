import Diary
import Foundation

/// An item in the trash, as the API answers and `saessak trash list --json` prints it.
public struct TrashItemResource: Encodable {
    public struct Parent: Encodable {
        let kind: TrashKind
        let id: String
    }

    let id: TrashID
    let kind: TrashKind
    let itemId: String
    let parent: Parent?
    let label: String
    let deletedBy: UserID?
    let deletedByName: String?
    let deletedAt: Date
    /// When the sweep deletes it for good, by the family's days of grace.
    let purgeAt: Date
    let daysLeft: Int
    let photoIds: [PhotoID]
    /// Share links that showed it and will not again.
    let shareLinks: Int
    /// The trash item holding what it belongs to, when that is in the trash too (restore with `withParent=true`).
    let parentTrashItem: TrashID?

    public init(_ item: TrashItem, keepingDays days: Int, now: Date) {
        id = item.id
        kind = item.kind
        itemId = item.itemID
        parent = item.parent.map { Parent(kind: $0.kind, id: $0.id) }
        label = item.label
        deletedBy = item.deletedBy
        deletedByName = item.deletedByName
        deletedAt = item.deletedAt
        purgeAt = item.purgeAt(keepingDays: days)
        daysLeft = item.daysLeft(keepingDays: days, now: now)
        photoIds = item.photoIDs
        shareLinks = item.shareLinks
        parentTrashItem = item.waitsFor
    }
}

/// What a restore put back: the item (after what it belonged to, when that came back too), and what it named that
/// is gone for good.
public struct TrashRestoreResource: Encodable {
    let restored: [TrashItemResource]
    let leftOut: [String]
    /// Share links that showed it: they do not show it again.
    let shareLinks: Int

    public init(_ restores: [TrashRestore], keepingDays days: Int, now: Date) {
        restored = restores.map { TrashItemResource($0.item, keepingDays: days, now: now) }
        leftOut = restores.flatMap(\.leftOut)
        shareLinks = restores.reduce(0) { $0 + $1.item.shareLinks }
    }
}

/// How long the family's trash keeps things.
public struct TrashSettingsResource: Codable {
    public let days: Int

    public init(days: Int) { self.days = days }
}
