import Diary
import Foundation
import KoreanCalendar

/// The earlier versions of entries (`entryVersions`): kept by every edit inside its transaction, with the photos they
/// showed held (`entryVersionPhotos`, no cascade from `photos`) so that a photo an edit dropped stays restorable.
enum SQLEntryVersions {
    /// An entry's content as a version keeps it (JSON), the same on both engines.
    struct Stored: Codable {
        let title: String
        let body: String
        let date: String
        let timeZone: String
        let childIds: [String]
        let tags: [String]
        let placeName: String?
        let latitude: Double?
        let longitude: Double?
        let weather: String?

        init(_ content: EntryContent) {
            title = content.title
            body = content.body
            date = content.date.iso
            timeZone = content.timeZone
            childIds = content.childIDs.map(\.sql)
            tags = content.tags
            placeName = content.place?.name
            latitude = content.place?.latitude
            longitude = content.place?.longitude
            weather = content.weather
        }

        func content() throws -> EntryContent {
            let place = placeName == nil && latitude == nil ? nil : try Place(name: placeName, latitude: latitude, longitude: longitude)
            return try EntryContent(
                title: title, body: body, date: try LocalDateTime(iso: date), timeZone: timeZone,
                childIDs: childIds.compactMap(ChildID.init), tags: tags, place: place, weather: weather)
        }
    }

    /// Keeps `stored` (the entry as it is before an edit by `user` at `now`) as its next version, and lets go of the
    /// versions past what is kept; returns the photo files no row uses any more.
    static func keep(_ db: any SQLSession, _ stored: Entry, by user: UserID?, now: Date) throws -> [ReleasedPhotoFile] {
        let last = try db.row("SELECT number, replacedBy FROM entryVersions WHERE entryId = \(stored.id) ORDER BY number DESC LIMIT 1")
        let number = (try last.map { try $0.int("number") } ?? 0) + 1
        // Who saved this version: the one whose edit replaced the last, or the entry's author for the first.
        let savedBy: String? = try last.map { try $0.optionalString("replacedBy") } ?? stored.authorID?.sql
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let id = UUID().uuidString.lowercased()
        try db.execute(
            """
            INSERT INTO entryVersions (id, entryId, familyId, number, content, savedAt, savedBy, replacedAt, replacedBy)
            VALUES (\(id), \(stored.id), \(stored.familyID), \(number), \(String(decoding: try encoder.encode(Stored(stored.content)), as: UTF8.self)),
                \(stored.modifiedAt), \(savedBy), \(now), \(user))
            """)
        for (position, photo) in stored.photoIDs.enumerated() {
            try db.execute(
                "INSERT INTO entryVersionPhotos (versionId, photoId, familyId, position) VALUES (\(id), \(photo), \(stored.familyID), \(position))")
        }
        // The newest versions, and every one younger than a year, stay.
        let cutoff = now.addingTimeInterval(-EntryVersion.keptFor)
        let dropped = try db.strings(
            """
            SELECT id FROM entryVersions WHERE entryId = \(stored.id) AND number <= \(number - EntryVersion.keptAtLeast)
                AND replacedAt < \(cutoff)
            """)
        guard !dropped.isEmpty else { return [] }
        let photos = try db.strings("SELECT DISTINCT photoId FROM entryVersionPhotos WHERE versionId IN \(list: dropped)")
        try db.execute("DELETE FROM entryVersions WHERE id IN \(list: dropped)")
        return try SQLPhotoStore.deleteUnreferenced(db, candidates: photos)
    }

    /// The entry's versions, newest first.
    static func list(_ db: any SQLSession, entry: EntryID) throws -> [EntryVersion] {
        let rows = try db.rows(
            """
            SELECT entryVersions.*, users.username AS savedByName FROM entryVersions LEFT JOIN users ON users.id = entryVersions.savedBy
            WHERE entryId = \(entry) ORDER BY number DESC
            """)
        var photos: [String: [PhotoID]] = [:]
        for row in try db.rows(
            """
            SELECT versionId, photoId FROM entryVersionPhotos WHERE versionId IN (SELECT id FROM entryVersions WHERE entryId = \(entry))
            ORDER BY versionId, position
            """)
        {
            photos[try row.string("versionId"), default: []].append(try row.id("photoId"))
        }
        return try rows.map { row in
            try readBack("entry version") {
                let stored = try JSONDecoder().decode(Stored.self, from: Data(try row.string("content").utf8))
                return EntryVersion(
                    entryID: try row.id("entryId"), number: try row.int("number"), content: try stored.content(),
                    photoIDs: photos[try row.string("id")] ?? [], savedAt: try row.timestamp("savedAt"), savedBy: try row.optionalID("savedBy"),
                    savedByName: try row.optionalString("savedByName"), replacedAt: try row.timestamp("replacedAt"),
                    replacedBy: try row.optionalID("replacedBy"))
            }
        }
    }
}
