import Diary
import Foundation

/// How a trashed item comes back (`SQLTrashStore.restore`): its rows put back by its kind's parts, what it named that
/// is gone for good left out or refused, and what points at it (search documents, importers' records) made again.
extension Trashing {
    /// Puts `item` back from its stored row; what it belonged to must be there (see `SQLTrashStore.restore`).
    static func restore(_ db: any SQLSession, _ row: SQLRow, item: TrashItem, leftOut: inout [String]) throws {
        let snapshot = try TrashSnapshot.decoded(try row.string("snapshot"))
        let family = item.familyID
        switch item.kind {
        case .entry:
            guard let id = EntryID(item.itemID) else { throw StoreError.unreadable("trashed entry id \(item.itemID)") }
            try requireAbsent(db, table: "entries", id: item.itemID, kind: "entry")
            try putEntries(db, snapshot, family: family, leftOut: &leftOut)
            guard try db.exists("SELECT 1 FROM entries WHERE id = \(id)") else { throw StoreError.unreadable("trashed entry \(id) had no row") }
        case .child:
            guard let id = ChildID(item.itemID) else { throw StoreError.unreadable("trashed child id \(item.itemID)") }
            try requireAbsent(db, table: "children", id: item.itemID, kind: "child")
            try snapshot.put(db, [TrashPart(table: "children", condition: "id = \(id)", clears: [("photoId", "photos")])], leftOut: &leftOut)
            guard try db.exists("SELECT 1 FROM children WHERE id = \(id) AND familyId = \(family)") else {
                throw StoreError.unreadable("trashed child \(id) had no row")
            }
            if let sealed = try row.optionalData("residentNumberSealed") {
                try db.execute("UPDATE children SET residentNumberSealed = \(sealed) WHERE id = \(id)")
            }
            try putEntries(db, snapshot, family: family, leftOut: &leftOut)
            try snapshot.put(db, childParts(id), leftOut: &leftOut)
            try relinkImported(db, snapshot, family: family)
        case .photo:
            guard let photo = PhotoID(item.itemID), let entry = item.parent.flatMap({ EntryID($0.id) }) else {
                throw StoreError.unreadable("trashed photo \(item.itemID)")
            }
            _ = try FamilyTable.entries.row(db, family: family, id: entry)
            guard try !db.exists("SELECT 1 FROM entryPhotos WHERE entryId = \(entry) AND photoId = \(photo)") else { return }
            let count = try db.int("SELECT count(*) FROM entryPhotos WHERE entryId = \(entry)") ?? 0
            var position = count
            if case .integer(let was) = snapshot.rows(of: "entryPhotos").first?["position"] ?? .null, let was = Int(exactly: was) {
                position = min(max(0, was), count)
            }
            // Make room: positions are unique per entry, so the later photos move in two steps.
            try db.execute("UPDATE entryPhotos SET position = -position - 2 WHERE entryId = \(entry) AND position >= \(position)")
            try db.execute("UPDATE entryPhotos SET position = -position - 1 WHERE entryId = \(entry) AND position < 0")
            try db.execute(
                "INSERT INTO entryPhotos (entryId, photoId, familyId, position) VALUES (\(entry), \(photo), \(family), \(position))")
        case .memo:
            guard let id = MemoID(item.itemID) else { throw StoreError.unreadable("trashed memo id \(item.itemID)") }
            try requireAbsent(db, table: "memos", id: item.itemID, kind: "memo")
            try snapshot.put(db, memoParts(id), leftOut: &leftOut)
            try db.searchIndex.refresh(db, memo: id)
        case .comment:
            guard let id = CommentID(item.itemID) else { throw StoreError.unreadable("trashed comment id \(item.itemID)") }
            try putAlone(db, snapshot, commentParts(id), table: "comments", item: item, what: "what the comment was on")
        case .event:
            guard let id = EventID(item.itemID) else { throw StoreError.unreadable("trashed event id \(item.itemID)") }
            try putAlone(db, snapshot, [eventParts(id)[0]], table: "events", item: item, what: "the child it was for")
            try snapshot.put(db, Array(eventParts(id).dropFirst()), leftOut: &leftOut)
            try relinkImported(db, snapshot, family: family)
        case .anniversary:
            guard let id = AnniversaryID(item.itemID) else { throw StoreError.unreadable("trashed anniversary id \(item.itemID)") }
            try putAlone(db, snapshot, anniversaryParts(id), table: "anniversaries", item: item, what: "the child it was for")
            try relinkImported(db, snapshot, family: family)
        case .measurement:
            guard let id = MeasurementID(item.itemID) else { throw StoreError.unreadable("trashed measurement id \(item.itemID)") }
            try putAlone(
                db, snapshot, [TrashPart(table: "growthMeasurements", condition: "id = \(id)", needs: [("childId", "children")])],
                table: "growthMeasurements", item: item, what: "the child it was of")
        case .vaccination:
            guard let id = VaccinationID(item.itemID) else { throw StoreError.unreadable("trashed vaccination id \(item.itemID)") }
            try putAlone(
                db, snapshot, [TrashPart(table: "vaccinations", condition: "id = \(id)", needs: [("childId", "children")])],
                table: "vaccinations", item: item, what: "the child it was of")
        }
    }

    /// One row back that cannot come back in part: refused when what it names is gone for good.
    private static func putAlone(
        _ db: any SQLSession, _ snapshot: TrashSnapshot, _ parts: [TrashPart], table: String, item: TrashItem, what: String
    ) throws {
        try requireAbsent(db, table: table, id: item.itemID, kind: item.kind.rawValue)
        var missing: [String] = []
        try snapshot.put(db, parts, leftOut: &missing)
        guard missing.isEmpty else {
            throw StoreError.conflict(field: item.kind.rawValue, message: "\(what) has been deleted for good")
        }
    }

    /// The entries of a snapshot with what hangs on them, their tags by name and their search documents; each must
    /// still name a child (every entry does).
    private static func putEntries(_ db: any SQLSession, _ snapshot: TrashSnapshot, family: FamilyID, leftOut: inout [String]) throws {
        let ids = snapshot.rows(of: "entries").compactMap { row -> EntryID? in
            guard case .text(let id) = row["id"] ?? .null else { return nil }
            return EntryID(id)
        }
        let parts = entryParts(ids.map(\.sql), linksOf: nil)
        try snapshot.put(db, Array(parts.prefix(2)), leftOut: &leftOut)  // the entries and their children
        for id in ids {
            guard try db.exists("SELECT 1 FROM entryChildren WHERE entryId = \(id)") else {
                throw StoreError.conflict(field: "entry", message: "every child the entry named has been deleted for good")
            }
            for (position, name) in (snapshot.tags[id.sql] ?? []).enumerated() {
                try db.execute("INSERT INTO tags (id, familyId, name) VALUES (\(TagID()), \(family), \(name)) ON CONFLICT DO NOTHING")
                try db.execute(
                    """
                    INSERT INTO entryTags (entryId, tagId, familyId, position)
                    SELECT \(id), id, familyId, \(position) FROM tags WHERE familyId = \(family) AND \(db.dialect.equalsIgnoringCase("name", name))
                    ON CONFLICT DO NOTHING
                    """)
            }
        }
        try snapshot.put(db, Array(parts.dropFirst(2)), leftOut: &leftOut)
        try relinkImported(db, snapshot, family: family)
        try db.searchIndex.refresh(db, entries: ids)
    }

    /// An importer's records of where things came from point at them again (they were cleared with them), so that
    /// importing the same file again still adds nothing twice.
    private static func relinkImported(_ db: any SQLSession, _ snapshot: TrashSnapshot, family: FamilyID) throws {
        for imported in snapshot.rows(of: "importedItems") {
            guard case .text(let source) = imported["source"] ?? .null, case .text(let key) = imported["sourceKey"] ?? .null else { continue }
            for column in ["entryId", "childId", "eventId", "anniversaryId"] {
                guard case .text(let id) = imported[column] ?? .null else { continue }
                try db.execute(
                    """
                    UPDATE importedItems SET \(raw: column) = \(id)
                    WHERE familyId = \(family) AND source = \(source) AND sourceKey = \(key) AND \(raw: column) IS NULL
                    """)
            }
        }
    }
}
