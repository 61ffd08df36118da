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
        let entries = [id.sql]
        let item = try insert(
            db, kind: .entry, itemID: id.sql, parent: nil, label: label(title: try row.string("title"), body: try row.string("body")),
            snapshot: try capture(db, entries: entries, linksOf: nil, plus: []), photos: try photosOf(db, entries: entries),
            shareLinks: try shareLinks(db, entries: entries), deletion)
        try FamilyTable.entries.delete(db, family: deletion.family, id: id)
        try SQLEntryStore.deleteUnusedTags(db, family: deletion.family)
        return item
    }

    /// A child with everything that was only theirs: the entries about no other child (as an entry goes), the child's
    /// links in entries shared with a sibling, events and visits with their photos, anniversaries, measurements,
    /// vaccinations, and the profile photo. The resident number stays sealed, in its own column.
    static func child(_ db: any SQLSession, _ id: ChildID, _ deletion: Deletion) throws -> TrashItem {
        let row = try FamilyTable.children.row(db, family: deletion.family, id: id)
        let entries = try db.strings(
            """
            SELECT entryId FROM entryChildren WHERE childId = \(id)
            EXCEPT SELECT entryId FROM entryChildren WHERE childId <> \(id)
            """)
        let events: SQL = "SELECT id FROM events WHERE childId = \(id)"
        let parts = [TrashPart(table: "children", condition: "id = \(id)", clears: [("photoId", "photos")])] + childParts(id)
        var snapshot = try capture(db, entries: entries, linksOf: id, plus: parts)
        snapshot.tables += try TrashSnapshot.capture(db, [
            TrashPart(
                table: "importedItems",
                condition: "childId = \(id) OR eventId IN (\(events)) OR anniversaryId IN (SELECT id FROM anniversaries WHERE childId = \(id))")
        ]).tables
        var photos = try photosOf(db, entries: entries)
        photos += try db.strings("SELECT photoId FROM eventPhotos WHERE eventId IN (\(events)) ORDER BY eventId, position")
        if let profile = try row.optionalString("photoId") { photos.append(profile) }
        var seen = Set<String>()
        let item = try insert(
            db, kind: .child, itemID: id.sql, parent: nil, label: try row.string("name"), snapshot: snapshot,
            photos: photos.filter { seen.insert($0).inserted }, shareLinks: try shareLinks(db, entries: entries), deletion,
            residentNumber: try row.optionalData("residentNumberSealed"),
            holding: entries.map { (.entry, $0) } + (try db.strings(events)).map { (.event, $0) }
                + (try db.strings("SELECT id FROM anniversaries WHERE childId = \(id)")).map { (.anniversary, $0) })
        try db.execute("DELETE FROM entries WHERE familyId = \(deletion.family) AND id IN \(list: entries)")
        try FamilyTable.children.delete(db, family: deletion.family, id: id)
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

    /// An event or visit with its photos (kept on disk) in order.
    static func event(_ db: any SQLSession, _ id: EventID, _ deletion: Deletion) throws -> TrashItem {
        let row = try FamilyTable.events.row(db, family: deletion.family, id: id)
        var snapshot = try TrashSnapshot.capture(db, eventParts(id))
        snapshot.tables += try TrashSnapshot.capture(db, [TrashPart(table: "importedItems", condition: "eventId = \(id)")]).tables
        let item = try insert(
            db, kind: .event, itemID: id.sql, parent: TrashParent(kind: .child, id: try row.string("childId")),
            label: try row.string("title"), snapshot: snapshot, photos: try SQLPhotoStore.photoIDs(db, of: .event(id)), shareLinks: 0,
            deletion)
        try FamilyTable.events.delete(db, family: deletion.family, id: id)
        return item
    }

    static func anniversary(_ db: any SQLSession, _ id: AnniversaryID, _ deletion: Deletion) throws -> TrashItem {
        let row = try FamilyTable.anniversaries.row(db, family: deletion.family, id: id)
        var snapshot = try TrashSnapshot.capture(db, anniversaryParts(id))
        snapshot.tables += try TrashSnapshot.capture(db, [TrashPart(table: "importedItems", condition: "anniversaryId = \(id)")]).tables
        let item = try insert(
            db, kind: .anniversary, itemID: id.sql, parent: try row.optionalString("childId").map { TrashParent(kind: .child, id: $0) },
            label: try row.string("name"), snapshot: snapshot, photos: [], shareLinks: 0, deletion)
        try FamilyTable.anniversaries.delete(db, family: deletion.family, id: id)
        return item
    }

    /// A growth measurement, labelled by its value and day (`75.2 cm · 2026-05-05`).
    static func measurement(_ db: any SQLSession, _ id: MeasurementID, child: ChildID, _ deletion: Deletion) throws -> TrashItem {
        _ = try FamilyTable.children.row(db, family: deletion.family, id: child)
        guard let row = try db.row("SELECT * FROM growthMeasurements WHERE id = \(id) AND childId = \(child)") else {
            throw StoreError.notFound(kind: "measurement", id: id.description)
        }
        let value = try row.double("value")
        let item = try insert(
            db, kind: .measurement, itemID: id.sql, parent: TrashParent(kind: .child, id: child.sql),
            label: "\(value) \(try row.string("unit")) · \(try row.string("date"))",
            snapshot: try TrashSnapshot.capture(db, [TrashPart(table: "growthMeasurements", condition: "id = \(id)")]), photos: [],
            shareLinks: 0, deletion)
        try db.execute("DELETE FROM growthMeasurements WHERE id = \(id)")
        return item
    }

    /// A recorded dose, labelled by its product and day.
    static func vaccination(_ db: any SQLSession, _ id: VaccinationID, child: ChildID, _ deletion: Deletion) throws -> TrashItem {
        guard let row = try db.row("SELECT * FROM vaccinations WHERE id = \(id) AND childId = \(child) AND familyId = \(deletion.family)") else {
            throw StoreError.notFound(kind: "vaccination", id: id.description)
        }
        let item = try insert(
            db, kind: .vaccination, itemID: id.sql, parent: TrashParent(kind: .child, id: child.sql),
            label: "\(try row.optionalString("productName") ?? row.string("product")) · \(try row.string("date"))",
            snapshot: try TrashSnapshot.capture(db, [TrashPart(table: "vaccinations", condition: "id = \(id)")]), photos: [],
            shareLinks: 0, deletion)
        try db.execute("DELETE FROM vaccinations WHERE id = \(id)")
        return item
    }

    // MARK: What goes along

    /// The rows of `entries` and what hangs on them (and every link of `child`, when a child goes), their tags by
    /// name, and the importer's records of them; `parts` go around them, the first before, the rest after.
    private static func capture(_ db: any SQLSession, entries: [String], linksOf child: ChildID?, plus parts: [TrashPart]) throws
        -> TrashSnapshot
    {
        var snapshot = try TrashSnapshot.capture(db, parts.prefix(1) + entryParts(entries, linksOf: child) + parts.dropFirst())
        snapshot.tables += try TrashSnapshot.capture(db, [TrashPart(table: "importedItems", condition: "entryId IN \(list: entries)")]).tables
        for row in try db.rows(
            """
            SELECT entryTags.entryId, tags.name FROM entryTags JOIN tags ON tags.id = entryTags.tagId
            WHERE entryTags.entryId IN \(list: entries) ORDER BY entryTags.entryId, entryTags.position
            """)
        {
            snapshot.tags[try row.string("entryId"), default: []].append(try row.string("name"))
        }
        return snapshot
    }

    /// Entries' rows and what hangs on them, parents first (tags by name go between the first two); with `linksOf`,
    /// that child's place in other entries too (a table is one part, whatever rows it holds).
    static func entryParts(_ ids: [String], linksOf child: ChildID?) -> [TrashPart] {
        let links: SQL = child.map { " OR childId = \($0)" } ?? ""
        return [
            TrashPart(table: "entries", condition: "id IN \(list: ids)", clears: [("authorId", "users")]),
            TrashPart(
                table: "entryChildren", condition: "entryId IN \(list: ids)\(links)", needs: [("childId", "children"), ("entryId", "entries")]),
            TrashPart(table: "entryPhotos", condition: "entryId IN \(list: ids)", needs: [("photoId", "photos")]),
            TrashPart(table: "comments", condition: "entryId IN \(list: ids)", clears: [("authorId", "users")]),
            TrashPart(table: "hearts", condition: "entryId IN \(list: ids)", needs: [("userId", "users")]),
            TrashPart(table: "entryReads", condition: "entryId IN \(list: ids)", needs: [("userId", "users")]),
            TrashPart(table: "entryVersions", condition: "entryId IN \(list: ids)", clears: [("savedBy", "users"), ("replacedBy", "users")]),
            TrashPart(
                table: "entryVersionPhotos", condition: "versionId IN (SELECT id FROM entryVersions WHERE entryId IN \(list: ids))",
                needs: [("photoId", "photos")]),
        ]
    }

    /// A child's own rows besides the child and the entries only about them.
    static func childParts(_ id: ChildID) -> [TrashPart] {
        let events: SQL = "SELECT id FROM events WHERE childId = \(id)"
        return [
            TrashPart(table: "events", condition: "childId = \(id)"),
            TrashPart(table: "eventPhotos", condition: "eventId IN (\(events))", needs: [("photoId", "photos")]),
            TrashPart(table: "anniversaries", condition: "childId = \(id)"),
            TrashPart(table: "growthMeasurements", condition: "childId = \(id)"),
            TrashPart(table: "vaccinations", condition: "childId = \(id)"),
            TrashPart(table: "vaccinationChoices", condition: "childId = \(id)"),
            TrashPart(table: "vaccinationSkips", condition: "childId = \(id)"),
        ]
    }

    static func eventParts(_ id: EventID) -> [TrashPart] {
        [
            TrashPart(table: "events", condition: "id = \(id)", needs: [("childId", "children")]),
            TrashPart(table: "eventPhotos", condition: "eventId = \(id)", needs: [("photoId", "photos")]),
        ]
    }

    static func anniversaryParts(_ id: AnniversaryID) -> [TrashPart] {
        [TrashPart(table: "anniversaries", condition: "id = \(id)", needs: [("childId", "children")])]
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

    /// The photos of `entries` in order, then those only their earlier versions show (held by the trash as well).
    private static func photosOf(_ db: any SQLSession, entries: [String]) throws -> [String] {
        let shown = try db.strings("SELECT photoId FROM entryPhotos WHERE entryId IN \(list: entries) ORDER BY entryId, position")
        let earlier = try db.strings(
            """
            SELECT DISTINCT entryVersionPhotos.photoId FROM entryVersionPhotos JOIN entryVersions ON entryVersions.id = entryVersionPhotos.versionId
            WHERE entryVersions.entryId IN \(list: entries) ORDER BY entryVersionPhotos.photoId
            """)
        let seen = Set(shown)
        return shown + earlier.filter { !seen.contains($0) }
    }

    private static func shareLinks(_ db: any SQLSession, entries: [String]) throws -> Int {
        try db.int("SELECT count(DISTINCT shareLinkId) FROM shareLinkEntries WHERE entryId IN \(list: entries)") ?? 0
    }

    private static func insert(
        _ db: any SQLSession, kind: TrashKind, itemID: String, parent: TrashParent?, label: String, snapshot: TrashSnapshot,
        photos: [String], shareLinks: Int, _ deletion: Deletion, residentNumber: Data? = nil, holding contents: [(TrashKind, String)] = []
    ) throws -> TrashItem {
        let id = TrashID()
        try db.execute(
            """
            INSERT INTO trashItems (id, familyId, kind, itemId, parentKind, parentId, label, deletedBy, deletedAt, shareLinks, snapshot,
                residentNumberSealed)
            VALUES (\(id), \(deletion.family), \(kind.rawValue), \(itemID), \(parent?.kind.rawValue), \(parent?.id), \(label),
                \(deletion.user), \(deletion.at), \(shareLinks), \(try snapshot.encoded()), \(residentNumber))
            """)
        for (position, photo) in photos.enumerated() {
            try db.execute(
                "INSERT INTO trashPhotos (trashId, photoId, familyId, position) VALUES (\(id), \(photo), \(deletion.family), \(position))")
        }
        for (contentKind, contentID) in [(kind, itemID)] + contents {
            try db.execute(
                """
                INSERT INTO trashContents (trashId, familyId, kind, itemId) VALUES (\(id), \(deletion.family), \(contentKind.rawValue), \(contentID))
                ON CONFLICT DO NOTHING
                """)
        }
        let name = try deletion.user.flatMap { try db.string("SELECT username FROM users WHERE id = \($0)") }
        return TrashItem(
            id: id, familyID: deletion.family, kind: kind, itemID: itemID, parent: parent, label: label, deletedBy: deletion.user,
            deletedByName: name, deletedAt: deletion.at, photoIDs: photos.compactMap(PhotoID.init), shareLinks: shareLinks)
    }

    static func requireAbsent(_ db: any SQLSession, table: String, id: String, kind: String) throws {
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
    static func label(title: String, body: String) -> String { Activity.label(title: title, body: body) }
}
