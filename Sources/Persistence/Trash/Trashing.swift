import Diary
import Foundation

/// How each kind of thing goes to the trash inside the transaction that deletes it, and how it comes back
/// (docs/trash.md). The stores' deletes call these; `SQLTrashStore` lists, restores and purges.
enum Trashing {
    /// Who and when, for every item put in the trash.
    struct Deletion {
        let family: FamilyID
        let user: UserID?
        let at: Date
    }

    // MARK: Into the trash

    /// An entry with its children, photos (kept on disk), comments, hearts and reads; tags by name. Share links stop
    /// showing it for good.
    static func entry(_ db: any SQLSession, _ id: EntryID, _ deletion: Deletion) throws -> TrashItem {
        let row = try FamilyTable.entries.row(db, family: deletion.family, id: id)
        // The importer's records of where the entry came from are kept to be pointed at it again, not inserted.
        var snapshot = try TrashSnapshot.capture(db, entryParts(id) + [TrashPart(table: "importedItems", condition: "entryId = \(id)")])
        snapshot.tags = try db.strings(
            "SELECT tags.name FROM entryTags JOIN tags ON tags.id = entryTags.tagId WHERE entryTags.entryId = \(id) ORDER BY entryTags.position")
        let shareLinks = try db.int("SELECT count(*) FROM shareLinkEntries WHERE entryId = \(id)") ?? 0
        let item = try insert(
            db, kind: .entry, itemID: id.sql, parent: nil, label: label(title: try row.string("title"), body: try row.string("body")),
            snapshot: snapshot, photos: try SQLPhotoStore.photoIDs(db, of: .entry(id)), shareLinks: shareLinks, deletion)
        try FamilyTable.entries.delete(db, family: deletion.family, id: id)
        try SQLEntryStore.deleteUnusedTags(db, family: deletion.family)
        return item
    }

    /// A photo or clip taken off an entry, with its place in the entry's order; the file stays while the trash holds it.
    static func photo(_ db: any SQLSession, _ photo: PhotoID, of entry: EntryID, _ deletion: Deletion) throws -> TrashItem {
        let row = try FamilyTable.entries.row(db, family: deletion.family, id: entry)
        let snapshot = try TrashSnapshot.capture(db, photoParts(photo, of: entry))
        guard !snapshot.rows(of: "entryPhotos").isEmpty else { throw StoreError.notFound(kind: "photo", id: photo.description) }
        let item = try insert(
            db, kind: .photo, itemID: photo.sql, parent: TrashParent(kind: .entry, id: entry.sql),
            label: label(title: try row.string("title"), body: try row.string("body")), snapshot: snapshot, photos: [photo.sql],
            shareLinks: 0, deletion)
        try db.execute("DELETE FROM entryPhotos WHERE entryId = \(entry) AND photoId = \(photo)")
        try renumberPhotos(db, of: entry)
        return item
    }

    static func memo(_ db: any SQLSession, _ id: MemoID, _ deletion: Deletion) throws -> TrashItem {
        let row = try FamilyTable.memos.row(db, family: deletion.family, id: id)
        let item = try insert(
            db, kind: .memo, itemID: id.sql, parent: nil, label: label(title: try row.string("title"), body: try row.string("body")),
            snapshot: try TrashSnapshot.capture(db, memoParts(id)), photos: [], shareLinks: 0, deletion)
        try FamilyTable.memos.delete(db, family: deletion.family, id: id)
        return item
    }

    /// A comment on an entry or a photo; `asOwner` may trash anyone's, others only their own.
    static func comment(_ db: any SQLSession, _ id: CommentID, asOwner: Bool, _ deletion: Deletion) throws -> TrashItem {
        guard let row = try db.row(
            "SELECT * FROM comments WHERE id = \(id) AND familyId = \(deletion.family) AND (authorId = \(deletion.user) OR \(asOwner))")
        else { throw StoreError.notFound(kind: "comment", id: id.description) }
        let parent = try row.optionalString("entryId").map { TrashParent(kind: .entry, id: $0) }
        let item = try insert(
            db, kind: .comment, itemID: id.sql, parent: parent, label: label(title: "", body: try row.string("body")),
            snapshot: try TrashSnapshot.capture(db, commentParts(id)), photos: [], shareLinks: 0, deletion)
        try db.execute("DELETE FROM comments WHERE id = \(id)")
        return item
    }

    // MARK: Back out

    /// Puts `item` back from its stored row; what it belonged to must be there (see `SQLTrashStore.restore`).
    static func restore(_ db: any SQLSession, _ row: SQLRow, item: TrashItem, leftOut: inout [String]) throws {
        let snapshot = try TrashSnapshot.decoded(try row.string("snapshot"))
        let family = item.familyID
        switch item.kind {
        case .entry:
            guard let id = EntryID(item.itemID) else { throw StoreError.unreadable("trashed entry id \(item.itemID)") }
            try requireAbsent(db, table: "entries", id: item.itemID, kind: "entry")
            let parts = entryParts(id)
            try snapshot.put(db, Array(parts.prefix(2)), leftOut: &leftOut)  // the entry and its children
            guard try db.exists("SELECT 1 FROM entryChildren WHERE entryId = \(id)") else {
                throw StoreError.conflict(field: "entry", message: "every child the entry named has been deleted for good")
            }
            for (position, name) in snapshot.tags.enumerated() {
                try db.execute("INSERT INTO tags (id, familyId, name) VALUES (\(TagID()), \(family), \(name)) ON CONFLICT DO NOTHING")
                try db.execute(
                    """
                    INSERT INTO entryTags (entryId, tagId, familyId, position)
                    SELECT \(id), id, familyId, \(position) FROM tags WHERE familyId = \(family) AND \(db.dialect.equalsIgnoringCase("name", name))
                    ON CONFLICT DO NOTHING
                    """)
            }
            try snapshot.put(db, Array(parts.dropFirst(2)), leftOut: &leftOut)
            // An importer's record of where the entry came from points at it again (it was cleared with the entry).
            for imported in snapshot.rows(of: "importedItems") {
                guard case .text(let source) = imported["source"] ?? .null, case .text(let key) = imported["sourceKey"] ?? .null else { continue }
                try db.execute(
                    "UPDATE importedItems SET entryId = \(id) WHERE familyId = \(family) AND source = \(source) AND sourceKey = \(key) AND entryId IS NULL")
            }
            try db.searchIndex.refresh(db, entry: id)
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
            try requireAbsent(db, table: "comments", id: item.itemID, kind: "comment")
            var missing: [String] = []
            try snapshot.put(db, commentParts(id), leftOut: &missing)
            guard missing.isEmpty else {
                throw StoreError.conflict(field: "comment", message: "what the comment was on has been deleted for good")
            }
        }
    }

    // MARK: What goes along

    static func entryParts(_ id: EntryID) -> [TrashPart] {
        [
            TrashPart(table: "entries", condition: "id = \(id)", clears: [("authorId", "users")]),
            TrashPart(table: "entryChildren", condition: "entryId = \(id)", needs: [("childId", "children")]),
            // (tags by name, between these two)
            TrashPart(table: "entryPhotos", condition: "entryId = \(id)", needs: [("photoId", "photos")]),
            TrashPart(table: "comments", condition: "entryId = \(id)", clears: [("authorId", "users")]),
            TrashPart(table: "hearts", condition: "entryId = \(id)", needs: [("userId", "users")]),
            TrashPart(table: "entryReads", condition: "entryId = \(id)", needs: [("userId", "users")]),
        ]
    }

    static func photoParts(_ photo: PhotoID, of entry: EntryID) -> [TrashPart] {
        [TrashPart(table: "entryPhotos", condition: "entryId = \(entry) AND photoId = \(photo)")]
    }

    static func memoParts(_ id: MemoID) -> [TrashPart] {
        [TrashPart(table: "memos", condition: "id = \(id)")]
    }

    static func commentParts(_ id: CommentID) -> [TrashPart] {
        [
            TrashPart(
                table: "comments", condition: "id = \(id)", needs: [("entryId", "entries"), ("photoId", "photos")],
                clears: [("authorId", "users")])
        ]
    }

    // MARK: Helpers

    private static func insert(
        _ db: any SQLSession, kind: TrashKind, itemID: String, parent: TrashParent?, label: String, snapshot: TrashSnapshot,
        photos: [String], shareLinks: Int, _ deletion: Deletion
    ) throws -> TrashItem {
        let id = TrashID()
        try db.execute(
            """
            INSERT INTO trashItems (id, familyId, kind, itemId, parentKind, parentId, label, deletedBy, deletedAt, shareLinks, snapshot)
            VALUES (\(id), \(deletion.family), \(kind.rawValue), \(itemID), \(parent?.kind.rawValue), \(parent?.id), \(label),
                \(deletion.user), \(deletion.at), \(shareLinks), \(try snapshot.encoded()))
            """)
        for (position, photo) in photos.enumerated() {
            try db.execute(
                "INSERT INTO trashPhotos (trashId, photoId, familyId, position) VALUES (\(id), \(photo), \(deletion.family), \(position))")
        }
        let name = try deletion.user.flatMap { try db.string("SELECT username FROM users WHERE id = \($0)") }
        return TrashItem(
            id: id, familyID: deletion.family, kind: kind, itemID: itemID, parent: parent, label: label, deletedBy: deletion.user,
            deletedByName: name, deletedAt: deletion.at, photoIDs: photos.compactMap(PhotoID.init), shareLinks: shareLinks)
    }

    private static func requireAbsent(_ db: any SQLSession, table: String, id: String, kind: String) throws {
        if try db.exists("SELECT 1 FROM \(raw: table) WHERE id = \(id)") {
            throw StoreError.conflict(field: kind, message: "a \(kind) with this id is already in the diary")
        }
    }

    /// An entry's photos numbered 0, 1, 2… in their order again after one was taken out: each to a negative number
    /// first, then all to their place (positions are unique per entry, and SQLite checks that row by row).
    static func renumberPhotos(_ db: any SQLSession, of entry: EntryID) throws {
        let order = try db.strings("SELECT photoId FROM entryPhotos WHERE entryId = \(entry) ORDER BY position")
        for (position, photo) in order.enumerated() {
            try db.execute("UPDATE entryPhotos SET position = \(-1 - position) WHERE entryId = \(entry) AND photoId = \(photo)")
        }
        try db.execute("UPDATE entryPhotos SET position = -1 - position WHERE entryId = \(entry) AND position < 0")
    }

    /// A few words to know the item by: the title, else the body's first line, at most 80 characters.
    static func label(title: String, body: String) -> String {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        let line = trimmed.isEmpty
            ? body.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            : trimmed
        return line.count > 80 ? String(line.prefix(79)) + "…" : line
    }
}
