import Diary
import DiaryStore
import Foundation
import Persistence

/// `PhotoStore` over PostgreSQL.
public struct PostgresPhotoStore: PhotoStore {
    let database: PostgresDatabase

    public init(_ database: PostgresDatabase) { self.database = database }

    public func add(_ photos: [Photo], family: FamilyID, entry: EntryID?) async throws -> [Photo] {
        try await database.writeAsync { db in
            if let entry { _ = try await PostgresFamilyTable.entries.row(db, family: family, id: entry) }
            var stored: [Photo] = []
            for photo in photos {
                try await Self.insert(db, photo, family: family)
                guard let row = try await db.row("SELECT * FROM photos WHERE familyId = ? AND sha256 = ?", [family.sql, photo.sha256])
                else { throw StoreError.unreadable("a photo just added") }
                let kept = try Self.decodePhoto(row)
                if let entry {
                    try await db.execute(
                        """
                        INSERT INTO entryPhotos (entryId, photoId, familyId, position)
                        SELECT ?, ?, ?, coalesce(max(position), -1) + 1 FROM entryPhotos WHERE entryId = ?
                        ON CONFLICT (entryId, photoId) DO NOTHING
                        """,
                        [entry.sql, kept.id.sql, family.sql, entry.sql])
                }
                stored.append(kept)
            }
            return stored
        }
    }

    /// One photo row, unless the family already has its content (then nothing happens).
    static func insert(_ db: PostgresTransaction, _ photo: Photo, family: FamilyID) async throws {
        try await db.execute(
            """
            INSERT INTO photos (id, familyId, sha256, mimeType, byteCount, width, height, orientation, takenLocal,
                takenOffset, latitude, longitude, cameraMake, cameraModel, thumbnails, durationMs, videoCodec, audioCodec,
                rendition, createdAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (familyId, sha256) DO NOTHING
            """,
            [
                photo.id.sql, family.sql, photo.sha256, photo.mimeType, photo.byteCount, photo.width, photo.height,
                photo.orientation, photo.takenLocal, photo.takenOffset, photo.latitude, photo.longitude,
                photo.cameraMake, photo.cameraModel, photo.thumbnailsReady ? "ready" : "pending",
                photo.video?.durationMilliseconds, photo.video?.videoCodec, photo.video?.audioCodec,
                (photo.video?.rendition ?? .none).rawValue, photo.createdAt.stored,
            ])
    }

    public func get(family: FamilyID, id: PhotoID) async throws -> Photo {
        try Self.decodePhoto(try await database.readAsync { db in try await PostgresFamilyTable.photos.row(db, family: family, id: id) })
    }

    public func photos(family: FamilyID, entry: EntryID) async throws -> [Photo] {
        try await database.readAsync { db in
            _ = try await PostgresFamilyTable.entries.row(db, family: family, id: entry)
            return try await Self.photos(db, entry: entry)
        }.map(Self.decodePhoto)
    }

    public func setPhotos(_ ids: [PhotoID], family: FamilyID, entry: EntryID) async throws -> (photos: [Photo], released: [ReleasedPhotoFile]) {
        let (rows, released) = try await database.writeAsync { db in
            _ = try await PostgresFamilyTable.entries.row(db, family: family, id: entry)
            var seen = Set<PhotoID>()
            let unique = ids.filter { seen.insert($0).inserted }
            for id in unique { try await PostgresFamilyTable.photos.requireReference(db, family: family, id: id, field: "photoIds") }
            let before = try await Self.photos(db, entry: entry).map { try $0.string("id") }
            try await db.execute("DELETE FROM entryPhotos WHERE entryId = ?", [entry.sql])
            for (position, id) in unique.enumerated() {
                try await db.execute(
                    "INSERT INTO entryPhotos (entryId, photoId, familyId, position) VALUES (?, ?, ?, ?)",
                    [entry.sql, id.sql, family.sql, position])
            }
            let released = try await Self.deleteUnreferenced(db, candidates: before.filter { id in !unique.contains { $0.sql == id } })
            return (try await Self.photos(db, entry: entry), released)
        }
        return (try rows.map(Self.decodePhoto), released)
    }

    public func remove(_ photo: PhotoID, family: FamilyID, entry: EntryID) async throws -> [ReleasedPhotoFile] {
        try await database.writeAsync { db in
            _ = try await PostgresFamilyTable.entries.row(db, family: family, id: entry)
            let removed = try await db.execute(
                "DELETE FROM entryPhotos WHERE entryId = ? AND photoId = ? RETURNING 1", [entry.sql, photo.sql])
            guard removed == 1 else { throw StoreError.notFound(kind: "photo", id: photo.description) }
            try await db.execute(
                """
                UPDATE entryPhotos SET position = (SELECT count(*) FROM entryPhotos later WHERE later.entryId = entryPhotos.entryId
                    AND later.position < entryPhotos.position) WHERE entryId = ?
                """,
                [entry.sql])
            return try await Self.deleteUnreferenced(db, candidates: [photo.sql])
        }
    }

    public func setProfilePhoto(_ photo: PhotoID?, family: FamilyID, child: ChildID) async throws -> [ReleasedPhotoFile] {
        try await database.writeAsync { db in
            let row = try await PostgresFamilyTable.children.row(db, family: family, id: child)
            let previous = try row.optionalString("photoId")
            if let photo { try await PostgresFamilyTable.photos.requireReference(db, family: family, id: photo, field: "photoId") }
            try await db.execute("UPDATE children SET photoId = ? WHERE id = ?", [photo?.sql, child.sql])
            guard let previous, previous != photo?.sql else { return [] }
            return try await Self.deleteUnreferenced(db, candidates: [previous])
        }
    }

    public func profilePhoto(family: FamilyID, child: ChildID) async throws -> Photo? {
        try await database.readAsync { db -> PostgresRecord? in
            let row = try await PostgresFamilyTable.children.row(db, family: family, id: child)
            guard let id = try row.optionalString("photoId") else { return nil }
            return try await db.row("SELECT * FROM photos WHERE id = ?", [id])
        }.map(Self.decodePhoto)
    }

    /// Rows another server is claiming right now are skipped (`SKIP LOCKED`), not waited for.
    public func claimThumbnailJobs(worker: String, lease: TimeInterval, limit: Int) async throws -> [Photo] {
        let now = database.clock.now()
        return try await database.writeAsync { db in
            let rows = try await db.rows(
                """
                SELECT photos.* FROM photos LEFT JOIN thumbnailClaims ON thumbnailClaims.photoId = photos.id
                WHERE photos.thumbnails = 'pending' AND (thumbnailClaims.photoId IS NULL OR thumbnailClaims.claimedUntil < ?)
                ORDER BY photos.createdAt, photos.id LIMIT ?
                FOR UPDATE OF photos SKIP LOCKED
                """,
                [now.stored, limit])
            for row in rows {
                try await db.execute(
                    """
                    INSERT INTO thumbnailClaims (photoId, worker, claimedUntil) VALUES (?, ?, ?)
                    ON CONFLICT (photoId) DO UPDATE SET worker = excluded.worker, claimedUntil = excluded.claimedUntil
                    """,
                    [try row.string("id"), worker, now.addingTimeInterval(lease).stored])
            }
            return try rows.map(Self.decodePhoto)
        }
    }

    public func markThumbnails(_ id: PhotoID, ready: Bool) async throws {
        try await database.writeAsync { db in
            try await db.execute("UPDATE photos SET thumbnails = ? WHERE id = ?", [ready ? "ready" : "failed", id.sql])
            try await db.execute("DELETE FROM thumbnailClaims WHERE photoId = ?", [id.sql])
        }
    }

    public func videos(family: FamilyID, among ids: [PhotoID]) async throws -> [PhotoID: VideoFacts] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await database.readAsync { db in
            try await db.rows(
                "SELECT * FROM photos WHERE familyId = ? AND durationMs IS NOT NULL AND id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ", ")))",
                [family.sql] + ids.map(\.sql))
        }
        var found: [PhotoID: VideoFacts] = [:]
        for photo in try rows.map(Self.decodePhoto) { found[photo.id] = photo.video }
        return found
    }

    public func claimRenditionJob(worker: String, lease: TimeInterval) async throws -> Photo? {
        let now = database.clock.now()
        return try await database.writeAsync { db in
            guard let row = try await db.row(
                """
                SELECT photos.* FROM photos LEFT JOIN renditionClaims ON renditionClaims.photoId = photos.id
                WHERE photos.rendition = 'pending' AND (renditionClaims.photoId IS NULL OR renditionClaims.claimedUntil < ?)
                ORDER BY photos.createdAt, photos.id LIMIT 1
                FOR UPDATE OF photos SKIP LOCKED
                """,
                [now.stored])
            else { return nil }
            try await db.execute(
                """
                INSERT INTO renditionClaims (photoId, worker, claimedUntil) VALUES (?, ?, ?)
                ON CONFLICT (photoId) DO UPDATE SET worker = excluded.worker, claimedUntil = excluded.claimedUntil
                """,
                [try row.string("id"), worker, now.addingTimeInterval(lease).stored])
            return try Self.decodePhoto(row)
        }
    }

    public func renewRendition(_ id: PhotoID, worker: String, lease: TimeInterval, progress: Int) async throws -> Bool {
        let until = database.clock.now().addingTimeInterval(lease).stored
        return try await database.writeAsync { db in
            guard try await db.row(
                "UPDATE renditionClaims SET claimedUntil = ? WHERE photoId = ? AND worker = ? RETURNING photoId", [until, id.sql, worker]) != nil
            else { return false }
            try await db.execute("UPDATE photos SET renditionProgress = ? WHERE id = ?", [min(100, max(0, progress)), id.sql])
            return true
        }
    }

    public func markRendition(_ id: PhotoID, ready: Bool) async throws {
        try await database.writeAsync { db in
            try await db.execute(
                "UPDATE photos SET rendition = ?, renditionProgress = NULL WHERE id = ? AND rendition = 'pending'",
                [ready ? "ready" : "failed", id.sql])
            try await db.execute("DELETE FROM renditionClaims WHERE photoId = ?", [id.sql])
        }
    }

    public func deleteUnattached(olderThan age: TimeInterval) async throws -> [ReleasedPhotoFile] {
        let cutoff = database.clock.now().addingTimeInterval(-age).stored
        return try await database.writeAsync { db in
            let ids = try await db.strings("SELECT id FROM photos WHERE createdAt < ?", [cutoff])
            return try await Self.deleteUnreferenced(db, candidates: ids)
        }
    }

    public func referencedHashes() async throws -> Set<String> {
        Set(try await database.readAsync { db in try await db.strings("SELECT DISTINCT sha256 FROM photos") })
    }

    static func photos(_ db: PostgresTransaction, entry: EntryID) async throws -> [PostgresRecord] {
        try await db.rows(
            "SELECT photos.* FROM entryPhotos JOIN photos ON photos.id = entryPhotos.photoId WHERE entryId = ? ORDER BY position",
            [entry.sql])
    }

    typealias Owner = PhotoOwner

    /// Links photos (of this family; repeats dropped) to an owner that has none, in the order given.
    static func link(_ db: PostgresTransaction, _ photos: [PhotoID], to owner: Owner, family: FamilyID) async throws {
        var seen = Set<PhotoID>()
        for (position, photo) in photos.filter({ seen.insert($0).inserted }).enumerated() {
            try await PostgresFamilyTable.photos.requireReference(db, family: family, id: photo, field: "photoIds")
            try await db.execute(
                "INSERT INTO \(owner.table) (\(owner.column), photoId, familyId, position) VALUES (?, ?, ?, ?)",
                [owner.id, photo.sql, family.sql, position])
        }
    }

    static func photoIDs(_ db: PostgresTransaction, of owner: Owner) async throws -> [String] {
        try await db.strings("SELECT photoId FROM \(owner.table) WHERE \(owner.column) = ? ORDER BY position", [owner.id])
    }

    static func replace(_ db: PostgresTransaction, photos: [PhotoID], of owner: Owner, family: FamilyID) async throws -> [ReleasedPhotoFile] {
        let before = try await photoIDs(db, of: owner)
        try await db.execute("DELETE FROM \(owner.table) WHERE \(owner.column) = ?", [owner.id])
        try await link(db, photos, to: owner, family: family)
        return try await deleteUnreferenced(db, candidates: before)
    }

    /// Deletes those of `candidates` that no entry, event or child uses, and reports the files whose last row went.
    static func deleteUnreferenced(_ db: PostgresTransaction, candidates: [String]) async throws -> [ReleasedPhotoFile] {
        var released: [ReleasedPhotoFile] = []
        for id in candidates {
            guard let row = try await db.row(
                """
                DELETE FROM photos WHERE id = ?
                    AND NOT EXISTS (SELECT 1 FROM entryPhotos WHERE photoId = photos.id)
                    AND NOT EXISTS (SELECT 1 FROM eventPhotos WHERE photoId = photos.id)
                    AND NOT EXISTS (SELECT 1 FROM children WHERE photoId = photos.id)
                RETURNING sha256, mimeType
                """,
                [id])
            else { continue }
            let sha = try row.string("sha256")
            if try await !db.exists("SELECT 1 FROM photos WHERE sha256 = ?", [sha]) {
                released.append(ReleasedPhotoFile(sha256: sha, mimeType: try row.string("mimeType")))
            }
        }
        return released
    }

    static func decodePhoto(_ row: PostgresRecord) throws -> Photo {
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
