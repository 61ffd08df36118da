import Diary
import Foundation

/// `TrashStore` over either engine: the items `Trashing` put in the trash, listed, put back and purged.
public struct SQLTrashStore: TrashStore {
    let database: any StoreDatabase

    public init(_ database: any StoreDatabase) { self.database = database }

    public func list(family: FamilyID) async throws -> (items: [TrashItem], days: Int) {
        try await database.read { db in
            guard let days = try db.int("SELECT trashDays FROM families WHERE id = \(family)") else {
                throw StoreError.notFound(kind: "family", id: family.description)
            }
            let rows = try db.rows(
                """
                SELECT trashItems.id, familyId, kind, itemId, parentKind, parentId, label, deletedBy, users.username AS deletedByName,
                    deletedAt, shareLinks
                FROM trashItems LEFT JOIN users ON users.id = trashItems.deletedBy
                WHERE familyId = \(family) ORDER BY deletedAt DESC, trashItems.id DESC
                """)
            var photos: [String: [PhotoID]] = [:]
            for row in try db.rows(
                "SELECT trashId, photoId FROM trashPhotos WHERE familyId = \(family) ORDER BY trashId, position")
            {
                photos[try row.string("trashId"), default: []].append(try row.id("photoId"))
            }
            let holders = try Self.holders(db, family: family)
            return (
                try rows.map { row in
                    var item = try Self.decode(row, photos: photos[try row.string("id")] ?? [])
                    item.waitsFor = item.parent.flatMap { holders["\($0.kind.rawValue) \($0.id)"] }.flatMap { $0 == item.id ? nil : $0 }
                    return item
                }, days
            )
        }
    }

    public func get(family: FamilyID, id: TrashID) async throws -> TrashItem {
        try await database.read { db in
            var item = try Self.stored(db, family: family, id: id).item
            if let parent = item.parent { item.waitsFor = try Self.trashed(db, family: family, parent: parent) }
            return item
        }
    }

    /// Which trash item holds each thing in the trash, by `kind id`.
    private static func holders(_ db: any SQLSession, family: FamilyID) throws -> [String: TrashID] {
        var holders: [String: TrashID] = [:]
        for row in try db.rows("SELECT trashId, kind, itemId FROM trashContents WHERE familyId = \(family)") {
            holders["\(try row.string("kind")) \(try row.string("itemId"))"] = try row.id("trashId")
        }
        return holders
    }

    public func restore(family: FamilyID, id: TrashID, withParent: Bool, as restorer: TrashRestorer) async throws -> [TrashRestore] {
        try await database.write { db in
            var restored: [TrashRestore] = []
            try Self.restore(db, family: family, id: id, withParent: withParent, as: restorer, into: &restored)
            return restored
        }
    }

    /// What it belonged to first (when asked), then the item, then the trash row goes (and with it its hold on photos).
    private static func restore(
        _ db: any SQLSession, family: FamilyID, id: TrashID, withParent: Bool, as restorer: TrashRestorer, cascaded: Bool = false,
        into restored: inout [TrashRestore]
    ) throws {
        let (item, row) = try stored(db, family: family, id: id)
        guard restorer.may(restore: item) else {
            if cascaded {
                throw StoreError.conflict(
                    field: "parent", message: "the \(item.kind.rawValue) it belongs to was deleted by another member: only an owner or editor can bring it back")
            }
            throw StoreError.notFound(kind: "trash item", id: id.description)
        }
        if let parent = item.parent, let trashed = try trashed(db, family: family, parent: parent) {
            guard withParent else {
                throw StoreError.conflict(
                    field: "parent", message: "the \(parent.kind.rawValue) it belongs to is in the trash too: restore both (withParent)")
            }
            try restore(db, family: family, id: trashed, withParent: true, as: restorer, cascaded: true, into: &restored)
        }
        var leftOut: [String] = []
        try Trashing.restore(db, row, item: item, leftOut: &leftOut)
        try db.execute("DELETE FROM trashItems WHERE id = \(id)")
        restored.append(TrashRestore(item: item, leftOut: leftOut))
    }

    /// The trash item that holds `parent` (its own, or a child's that took it along), when it is in the trash and not
    /// in the diary.
    private static func trashed(_ db: any SQLSession, family: FamilyID, parent: TrashParent) throws -> TrashID? {
        let table = switch parent.kind {
        case .entry: "entries"
        case .child: "children"
        case .memo: "memos"
        case .comment: "comments"
        case .photo: "photos"
        case .event: "events"
        case .anniversary: "anniversaries"
        case .measurement: "growthMeasurements"
        case .vaccination: "vaccinations"
        }
        if try db.exists("SELECT 1 FROM \(raw: table) WHERE id = \(parent.id)") { return nil }
        return try db.string(
            """
            SELECT trashContents.trashId FROM trashContents JOIN trashItems ON trashItems.id = trashContents.trashId
            WHERE trashContents.familyId = \(family) AND trashContents.kind = \(parent.kind.rawValue) AND trashContents.itemId = \(parent.id)
            ORDER BY trashItems.deletedAt DESC LIMIT 1
            """
        ).flatMap(TrashID.init)
    }

    public func purge(family: FamilyID, id: TrashID) async throws -> [ReleasedPhotoFile] {
        try await database.write { db in
            _ = try Self.stored(db, family: family, id: id)
            return try Self.purge(db, items: [id.sql])
        }
    }

    public func empty(family: FamilyID) async throws -> [ReleasedPhotoFile] {
        try await database.write { db in
            try Self.purge(db, items: try db.strings("SELECT id FROM trashItems WHERE familyId = \(family)"))
        }
    }

    public func sweep() async throws -> [ReleasedPhotoFile] {
        let now = database.clock.now()
        return try await database.write { db in
            // Nothing is due before the shortest time a family may choose; of the rest, each family's own.
            let shortest = now.addingTimeInterval(-TimeInterval(TrashRetention.days.lowerBound) * 86_400)
            let due = try db.rows(
                """
                SELECT trashItems.id, trashItems.deletedAt, families.trashDays FROM trashItems
                JOIN families ON families.id = trashItems.familyId WHERE trashItems.deletedAt < \(shortest)
                """
            ).filter { row in
                let days = try row.int("trashDays")
                return try row.timestamp("deletedAt").addingTimeInterval(TimeInterval(days) * 86_400) <= now
            }
            return try Self.purge(db, items: try due.map { try $0.string("id") })
        }
    }

    /// Deletes the trash rows, then the photos only they held (and, when no row has the content, its file).
    private static func purge(_ db: any SQLSession, items: [String]) throws -> [ReleasedPhotoFile] {
        guard !items.isEmpty else { return [] }
        let photos = try db.strings("SELECT DISTINCT photoId FROM trashPhotos WHERE trashId IN \(list: items)")
        try db.execute("DELETE FROM trashItems WHERE id IN \(list: items)")
        return try SQLPhotoStore.deleteUnreferenced(db, candidates: photos)
    }

    public func retention(family: FamilyID) async throws -> Int {
        try await database.read { db in
            guard let days = try db.int("SELECT trashDays FROM families WHERE id = \(family)") else {
                throw StoreError.notFound(kind: "family", id: family.description)
            }
            return days
        }
    }

    public func setRetention(family: FamilyID, days: Int) async throws {
        let days = try TrashRetention.checked(days)
        try await database.write { db in
            guard try db.execute("UPDATE families SET trashDays = \(days) WHERE id = \(family)") == 1 else {
                throw StoreError.notFound(kind: "family", id: family.description)
            }
        }
    }

    // MARK: Rows

    private static func stored(_ db: any SQLSession, family: FamilyID, id: TrashID) throws -> (item: TrashItem, row: SQLRow) {
        guard let row = try db.row(
            """
            SELECT trashItems.*, users.username AS deletedByName FROM trashItems LEFT JOIN users ON users.id = trashItems.deletedBy
            WHERE trashItems.id = \(id) AND familyId = \(family)
            """)
        else {
            throw StoreError.notFound(kind: "trash item", id: id.description)
        }
        let photos: [PhotoID] = try db.rows("SELECT photoId FROM trashPhotos WHERE trashId = \(id) ORDER BY position").map { try $0.id("photoId") }
        return (try decode(row, photos: photos), row)
    }

    static func decode(_ row: SQLRow, photos: [PhotoID]) throws -> TrashItem {
        let kind = try row.string("kind")
        guard let kind = TrashKind(rawValue: kind) else { throw StoreError.unreadable("trash item kind '\(kind)'") }
        var parent: TrashParent?
        if let parentKind = try row.optionalString("parentKind"), let parentID = try row.optionalString("parentId") {
            guard let parentKind = TrashKind(rawValue: parentKind) else { throw StoreError.unreadable("trash item parent kind '\(parentKind)'") }
            parent = TrashParent(kind: parentKind, id: parentID)
        }
        return TrashItem(
            id: try row.id("id"), familyID: try row.id("familyId"), kind: kind, itemID: try row.string("itemId"), parent: parent,
            label: try row.string("label"), deletedBy: try row.optionalID("deletedBy"),
            deletedByName: try row.optionalString("deletedByName"), deletedAt: try row.timestamp("deletedAt"),
            photoIDs: photos, shareLinks: try row.int("shareLinks"))
    }
}
