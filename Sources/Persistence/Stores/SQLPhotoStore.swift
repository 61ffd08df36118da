import Diary
import Foundation

/// `PhotoStore` over either engine, and the photo links every store that keeps photos uses.
public struct SQLPhotoStore: PhotoStore {
    let database: any StoreDatabase

    public init(_ database: any StoreDatabase) { self.database = database }

    public func add(_ photos: [Photo], family: FamilyID, entry: EntryID?) async throws -> [Photo] {
        try await database.write { db in
            if let entry { _ = try FamilyTable.entries.row(db, family: family, id: entry) }
            var stored: [Photo] = []
            for photo in photos {
                try Self.insert(db, photo, family: family)
                guard let row = try db.row("SELECT * FROM photos WHERE familyId = \(family) AND sha256 = \(photo.sha256)") else {
                    throw StoreError.unreadable("a photo just added")
                }
                let kept = try Self.decode(row)
                if let entry {
                    try db.execute(
                        """
                        INSERT INTO entryPhotos (entryId, photoId, familyId, position)
                        SELECT \(entry), \(kept.id), \(family), coalesce(max(position), -1) + 1 FROM entryPhotos WHERE entryId = \(entry)
                        ON CONFLICT (entryId, photoId) DO NOTHING
                        """)
                }
                stored.append(kept)
            }
            return stored
        }
    }

    /// One photo row, unless the family already has its content (then nothing happens).
    public static func insert(_ db: any SQLSession, _ photo: Photo, family: FamilyID) throws {
        let video = photo.video
        try db.execute(
            """
            INSERT INTO photos (id, familyId, sha256, mimeType, byteCount, width, height, orientation, takenLocal,
                takenOffset, latitude, longitude, cameraMake, cameraModel, thumbnails, durationMs, videoCodec, audioCodec,
                rendition, createdAt)
            VALUES (\(photo.id), \(family), \(photo.sha256), \(photo.mimeType), \(photo.byteCount), \(photo.width), \(photo.height),
                \(photo.orientation), \(photo.takenLocal), \(photo.takenOffset), \(photo.latitude), \(photo.longitude),
                \(photo.cameraMake), \(photo.cameraModel), \(photo.thumbnailsReady ? "ready" : "pending"),
                \(video?.durationMilliseconds), \(video?.videoCodec), \(video?.audioCodec), \((video?.rendition ?? .none).rawValue),
                \(photo.createdAt))
            ON CONFLICT (familyId, sha256) DO NOTHING
            """)
    }

    public func isInDiary(family: FamilyID, id: PhotoID) async throws -> Bool {
        try await database.read { db in
            try db.exists(
                """
                SELECT 1 FROM photos WHERE id = \(id) AND familyId = \(family) AND (
                    EXISTS (SELECT 1 FROM entryPhotos WHERE photoId = photos.id AND familyId = photos.familyId)
                    OR EXISTS (SELECT 1 FROM eventPhotos WHERE photoId = photos.id AND familyId = photos.familyId)
                    OR EXISTS (SELECT 1 FROM children WHERE photoId = photos.id AND familyId = photos.familyId))
                """)
        }
    }

    public func storageUse(family: FamilyID?, now: Date) async throws -> StorageUse {
        let cutoff = now.addingTimeInterval(-30 * 86_400)
        let photos: SQL = family.map { " WHERE familyId = \($0)" } ?? ""
        let books: SQL = family.map { " AND familyId = \($0)" } ?? ""
        return try await database.read { db in
            guard let row = try db.row(
                """
                SELECT CAST(coalesce(sum(CASE WHEN mimeType LIKE 'video/%' THEN 0 ELSE byteCount END), 0) AS BIGINT) AS photoBytes,
                    CAST(coalesce(sum(CASE WHEN mimeType LIKE 'video/%' THEN byteCount ELSE 0 END), 0) AS BIGINT) AS clipBytes,
                    CAST(coalesce(sum(CASE WHEN createdAt > \(cutoff) THEN byteCount ELSE 0 END), 0) AS BIGINT) AS added,
                    (SELECT CAST(coalesce(sum(byteCount), 0) AS BIGINT) FROM bookJobs WHERE status = 'ready'\(books)) AS bookBytes
                FROM photos\(photos)
                """)
            else { throw StoreError.unreadable("storage use") }
            return StorageUse(
                photoBytes: try row.int64("photoBytes"), clipBytes: try row.int64("clipBytes"), bookBytes: try row.int64("bookBytes"),
                addedLastMonth: try row.int64("added"))
        }
    }

    public func get(family: FamilyID, id: PhotoID) async throws -> Photo {
        try await database.read { db in try Self.decode(try FamilyTable.photos.row(db, family: family, id: id)) }
    }

    public func photos(family: FamilyID, entry: EntryID) async throws -> [Photo] {
        try await database.read { db in
            _ = try FamilyTable.entries.row(db, family: family, id: entry)
            return try Self.photos(db, entry: entry).map(Self.decode)
        }
    }

    public func photos(family: FamilyID, entries: [EntryID]) async throws -> [EntryID: [Photo]] {
        guard !entries.isEmpty else { return [:] }
        return try await database.read { db in
            var photos: [EntryID: [Photo]] = [:]
            for row in try db.rows(
                """
                SELECT photos.*, entryPhotos.entryId AS ownerEntry FROM entryPhotos JOIN photos ON photos.id = entryPhotos.photoId
                WHERE entryPhotos.entryId IN \(list: entries) AND \(db.dialect.unindexed("entryPhotos.familyId")) = \(family)
                ORDER BY entryPhotos.entryId, entryPhotos.position
                """)
            {
                photos[try row.id("ownerEntry"), default: []].append(try Self.decode(row))
            }
            return photos
        }
    }

    public func setPhotos(_ ids: [PhotoID], family: FamilyID, entry: EntryID, by user: UserID?) async throws
        -> (photos: [Photo], released: [ReleasedPhotoFile])
    {
        let now = database.clock.now()
        return try await database.write { db in
            // An edit of the entry: the version it replaces is kept, with the photos it showed.
            let stored = try SQLEntryStore.fetch(db, family: family, id: entry)
            var released = try SQLEntryVersions.keep(db, stored, by: user, now: now)
            try db.execute("UPDATE entries SET modifiedAt = \(stored.nextModifiedAt(now: now)) WHERE id = \(entry)")
            released += try Self.replace(db, photos: ids, of: .entry(entry), family: family)
            return (try Self.photos(db, entry: entry).map(Self.decode), released)
        }
    }

    public func remove(_ photo: PhotoID, family: FamilyID, entry: EntryID, by user: UserID?) async throws -> TrashItem {
        let deletion = Trashing.Deletion(family: family, user: user, at: database.clock.now())
        return try await database.write { db in try Trashing.photo(db, photo, of: entry, deletion) }
    }

    public func setProfilePhoto(_ photo: PhotoID?, family: FamilyID, child: ChildID) async throws -> [ReleasedPhotoFile] {
        try await database.write { db in
            let previous = try FamilyTable.children.row(db, family: family, id: child).optionalString("photoId")
            if let photo { try FamilyTable.photos.requireReference(db, family: family, id: photo, field: "photoId") }
            try db.execute("UPDATE children SET photoId = \(photo) WHERE id = \(child)")
            guard let previous, previous != photo?.sql else { return [] }
            return try Self.deleteUnreferenced(db, candidates: [previous])
        }
    }

    public func profilePhoto(family: FamilyID, child: ChildID) async throws -> Photo? {
        try await database.read { db in
            guard let id = try FamilyTable.children.row(db, family: family, id: child).optionalString("photoId"),
                let photo = try db.row("SELECT * FROM photos WHERE id = \(id)")
            else { return nil }
            return try Self.decode(photo)
        }
    }

    public func claimThumbnailJobs(worker: String, lease: TimeInterval, limit: Int) async throws -> [Photo] {
        let now = database.clock.now()
        return try await database.write { db in
            let rows = try db.rows(
                """
                SELECT photos.* FROM photos LEFT JOIN thumbnailClaims ON thumbnailClaims.photoId = photos.id
                WHERE photos.thumbnails = 'pending' AND (thumbnailClaims.photoId IS NULL OR thumbnailClaims.claimedUntil < \(now))
                ORDER BY photos.createdAt, photos.id LIMIT \(limit)
                \(db.dialect.lockSkippingLocked("photos"))
                """)
            for row in rows {
                try db.execute(
                    """
                    INSERT INTO thumbnailClaims (photoId, worker, claimedUntil) VALUES (\(try row.string("id")), \(worker), \(now.addingTimeInterval(lease)))
                    ON CONFLICT (photoId) DO UPDATE SET worker = excluded.worker, claimedUntil = excluded.claimedUntil
                    """)
            }
            return try rows.map(Self.decode)
        }
    }

    public func markThumbnails(_ id: PhotoID, ready: Bool) async throws {
        try await database.write { db in
            try db.execute("UPDATE photos SET thumbnails = \(ready ? "ready" : "failed") WHERE id = \(id)")
            try db.execute("DELETE FROM thumbnailClaims WHERE photoId = \(id)")
        }
    }

    public func videos(family: FamilyID, among ids: [PhotoID]) async throws -> [PhotoID: VideoFacts] {
        guard !ids.isEmpty else { return [:] }
        return try await database.read { db in
            var found: [PhotoID: VideoFacts] = [:]
            for row in try db.rows("SELECT * FROM photos WHERE familyId = \(family) AND durationMs IS NOT NULL AND id IN \(list: ids)") {
                let photo = try Self.decode(row)
                found[photo.id] = photo.video
            }
            return found
        }
    }

    public func claimRenditionJob(worker: String, lease: TimeInterval) async throws -> Photo? {
        let now = database.clock.now()
        return try await database.write { db in
            guard let row = try db.row(
                """
                SELECT photos.* FROM photos LEFT JOIN renditionClaims ON renditionClaims.photoId = photos.id
                WHERE photos.rendition = 'pending' AND (renditionClaims.photoId IS NULL OR renditionClaims.claimedUntil < \(now))
                ORDER BY photos.createdAt, photos.id LIMIT 1
                \(db.dialect.lockSkippingLocked("photos"))
                """)
            else { return nil }
            try db.execute(
                """
                INSERT INTO renditionClaims (photoId, worker, claimedUntil) VALUES (\(try row.string("id")), \(worker), \(now.addingTimeInterval(lease)))
                ON CONFLICT (photoId) DO UPDATE SET worker = excluded.worker, claimedUntil = excluded.claimedUntil
                """)
            return try Self.decode(row)
        }
    }

    public func renewRendition(_ id: PhotoID, worker: String, lease: TimeInterval, progress: Int) async throws -> Bool {
        let until = database.clock.now().addingTimeInterval(lease)
        return try await database.write { db in
            guard try db.execute("UPDATE renditionClaims SET claimedUntil = \(until) WHERE photoId = \(id) AND worker = \(worker)") == 1 else {
                return false
            }
            try db.execute("UPDATE photos SET renditionProgress = \(min(100, max(0, progress))) WHERE id = \(id)")
            return true
        }
    }

    public func markRendition(_ id: PhotoID, ready: Bool) async throws {
        try await database.write { db in
            try db.execute(
                "UPDATE photos SET rendition = \(ready ? "ready" : "failed"), renditionProgress = NULL WHERE id = \(id) AND rendition = 'pending'")
            try db.execute("DELETE FROM renditionClaims WHERE photoId = \(id)")
        }
    }

    public func deleteUnattached(olderThan age: TimeInterval) async throws -> [ReleasedPhotoFile] {
        let cutoff = database.clock.now().addingTimeInterval(-age)
        return try await database.write { db in
            try Self.deleteUnreferenced(db, candidates: try db.strings("SELECT id FROM photos WHERE createdAt < \(cutoff)"))
        }
    }

    public func referencedHashes() async throws -> Set<String> {
        try await database.read { db in Set(try db.strings("SELECT DISTINCT sha256 FROM photos")) }
    }

    public func hashes(family: FamilyID) async throws -> Set<String> {
        try await database.read { db in Set(try db.strings("SELECT sha256 FROM photos WHERE familyId = \(family)")) }
    }

    // MARK: Links, for every store that keeps photos

    static func photos(_ db: any SQLSession, entry: EntryID) throws -> [SQLRow] {
        try db.rows("SELECT photos.* FROM entryPhotos JOIN photos ON photos.id = entryPhotos.photoId WHERE entryId = \(entry) ORDER BY position")
    }

    /// Links photos (of this family; repeats dropped) to an owner that has none, in the order given.
    public static func link(_ db: any SQLSession, _ photos: [PhotoID], to owner: PhotoOwner, family: FamilyID) throws {
        var seen = Set<PhotoID>()
        for (position, photo) in photos.filter({ seen.insert($0).inserted }).enumerated() {
            try FamilyTable.photos.requireReference(db, family: family, id: photo, field: "photoIds")
            try db.execute(
                "INSERT INTO \(raw: owner.table) (\(raw: owner.column), photoId, familyId, position) VALUES (\(owner.id), \(photo), \(family), \(position))")
        }
    }

    /// The IDs of an owner's photos in their order.
    public static func photoIDs(_ db: any SQLSession, of owner: PhotoOwner) throws -> [String] {
        try db.strings("SELECT photoId FROM \(raw: owner.table) WHERE \(raw: owner.column) = \(owner.id) ORDER BY position")
    }

    /// Replaces an owner's photos with `photos`; returns the files whose last row went with the dropped ones.
    public static func replace(_ db: any SQLSession, photos: [PhotoID], of owner: PhotoOwner, family: FamilyID) throws -> [ReleasedPhotoFile] {
        let before = try photoIDs(db, of: owner)
        try db.execute("DELETE FROM \(raw: owner.table) WHERE \(raw: owner.column) = \(owner.id)")
        try link(db, photos, to: owner, family: family)
        return try deleteUnreferenced(db, candidates: before)
    }

    /// Deletes those of `candidates` that no entry, event, child, trashed item or earlier version of an entry uses,
    /// and reports the files whose last row went.
    public static func deleteUnreferenced(_ db: any SQLSession, candidates: [String]) throws -> [ReleasedPhotoFile] {
        var released: [ReleasedPhotoFile] = []
        for id in candidates {
            guard let row = try db.row(
                """
                DELETE FROM photos WHERE id = \(id)
                    AND NOT EXISTS (SELECT 1 FROM entryPhotos WHERE photoId = photos.id)
                    AND NOT EXISTS (SELECT 1 FROM eventPhotos WHERE photoId = photos.id)
                    AND NOT EXISTS (SELECT 1 FROM children WHERE photoId = photos.id)
                    AND NOT EXISTS (SELECT 1 FROM trashPhotos WHERE photoId = photos.id)
                    AND NOT EXISTS (SELECT 1 FROM entryVersionPhotos WHERE photoId = photos.id)
                RETURNING sha256, mimeType
                """)
            else { continue }
            let sha = try row.string("sha256")
            if try !db.exists("SELECT 1 FROM photos WHERE sha256 = \(sha)") {
                released.append(ReleasedPhotoFile(sha256: sha, mimeType: try row.string("mimeType")))
            }
        }
        return released
    }

    public static func decode(_ row: SQLRow) throws -> Photo {
        try readBack("photo") {
            Photo(
                id: try row.id("id"), familyID: try row.id("familyId"), sha256: try row.string("sha256"),
                mimeType: try row.string("mimeType"), byteCount: try row.int("byteCount"), width: try row.int("width"),
                height: try row.int("height"), orientation: try row.int("orientation"), takenLocal: try row.optionalString("takenLocal"),
                takenOffset: try row.optionalString("takenOffset"), latitude: try row.optionalDouble("latitude"),
                longitude: try row.optionalDouble("longitude"), cameraMake: try row.optionalString("cameraMake"),
                cameraModel: try row.optionalString("cameraModel"), thumbnailsReady: try row.string("thumbnails") == "ready",
                video: try VideoFacts(
                    durationMilliseconds: row.optionalInt("durationMs"), videoCodec: row.optionalString("videoCodec"),
                    audioCodec: row.optionalString("audioCodec"), rendition: row.string("rendition"),
                    progress: row.optionalInt("renditionProgress")),
                createdAt: try row.timestamp("createdAt"))
        }
    }
}

/// What photos hang on, in order: an entry or an event — and the link table and column that say so.
public enum PhotoOwner: Sendable {
    case entry(EntryID)
    case event(EventID)

    public var table: String {
        switch self {
        case .entry: "entryPhotos"
        case .event: "eventPhotos"
        }
    }

    public var column: String {
        switch self {
        case .entry: "entryId"
        case .event: "eventId"
        }
    }

    public var id: String {
        switch self {
        case .entry(let id): id.sql
        case .event(let id): id.sql
        }
    }
}
