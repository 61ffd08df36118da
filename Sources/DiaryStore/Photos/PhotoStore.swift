import Diary
import Foundation
import GRDB
import Persistence

/// `PhotoStore` over the SQLite database (`DiaryDatabase`).
public struct SQLitePhotoStore: PhotoStore {
    let database: DiaryDatabase

    public init(_ database: DiaryDatabase) { self.database = database }

    public func add(_ photos: [Photo], family: FamilyID, entry: EntryID?) async throws -> [Photo] {
        try await database.writer.write { db in
            if let entry { _ = try FamilyTable.entries.row(db, family: family, id: entry) }
            var stored: [Photo] = []
            for photo in photos {
                try Self.insert(db, photo, family: family)
                let row = try Row.fetchOne(
                    db, sql: "SELECT * FROM photos WHERE familyId = ? AND sha256 = ?", arguments: [family.sql, photo.sha256])!
                let kept = try decodePhoto(row)
                if let entry {
                    try db.execute(
                        sql: """
                            INSERT INTO entryPhotos (entryId, photoId, familyId, position)
                            SELECT ?, ?, ?, coalesce(max(position), -1) + 1 FROM entryPhotos WHERE entryId = ?
                            ON CONFLICT (entryId, photoId) DO NOTHING
                            """,
                        arguments: [entry.sql, kept.id.sql, family.sql, entry.sql])
                }
                stored.append(kept)
            }
            return stored
        }
    }

    /// One photo row, unless the family already has its content (then nothing happens).
    static func insert(_ db: Database, _ photo: Photo, family: FamilyID) throws {
        try db.execute(
            sql: """
                INSERT INTO photos (id, familyId, sha256, mimeType, byteCount, width, height, orientation, takenLocal,
                    takenOffset, latitude, longitude, cameraMake, cameraModel, thumbnails, durationMs, videoCodec, audioCodec,
                    rendition, createdAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (familyId, sha256) DO NOTHING
                """,
            arguments: [
                photo.id.sql, family.sql, photo.sha256, photo.mimeType, photo.byteCount, photo.width, photo.height,
                photo.orientation, photo.takenLocal, photo.takenOffset, photo.latitude, photo.longitude,
                photo.cameraMake, photo.cameraModel, photo.thumbnailsReady ? "ready" : "pending",
                photo.video?.durationMilliseconds, photo.video?.videoCodec, photo.video?.audioCodec,
                (photo.video?.rendition ?? .none).rawValue, photo.createdAt.stored,
            ])
    }

    public func get(family: FamilyID, id: PhotoID) async throws -> Photo {
        try await database.writer.read { db in try decodePhoto(try FamilyTable.photos.row(db, family: family, id: id)) }
    }

    public func photos(family: FamilyID, entry: EntryID) async throws -> [Photo] {
        try await database.writer.read { db in
            _ = try FamilyTable.entries.row(db, family: family, id: entry)
            return try Self.photos(db, entry: entry).map(decodePhoto)
        }
    }

    public func setPhotos(_ ids: [PhotoID], family: FamilyID, entry: EntryID) async throws -> (photos: [Photo], released: [ReleasedPhotoFile]) {
        try await database.writer.write { db in
            _ = try FamilyTable.entries.row(db, family: family, id: entry)
            var seen = Set<PhotoID>()
            let unique = ids.filter { seen.insert($0).inserted }
            for id in unique { try FamilyTable.photos.requireReference(db, family: family, id: id, field: "photoIds") }
            let before = try Self.photos(db, entry: entry).map { try $0.decode(String.self, forColumn: "id") }
            try db.execute(sql: "DELETE FROM entryPhotos WHERE entryId = ?", arguments: [entry.sql])
            for (position, id) in unique.enumerated() {
                try db.execute(
                    sql: "INSERT INTO entryPhotos (entryId, photoId, familyId, position) VALUES (?, ?, ?, ?)",
                    arguments: [entry.sql, id.sql, family.sql, position])
            }
            let released = try Self.deleteUnreferenced(db, candidates: before.filter { id in !unique.contains { $0.sql == id } })
            return (try Self.photos(db, entry: entry).map(decodePhoto), released)
        }
    }

    public func remove(_ photo: PhotoID, family: FamilyID, entry: EntryID) async throws -> [ReleasedPhotoFile] {
        try await database.writer.write { db in
            _ = try FamilyTable.entries.row(db, family: family, id: entry)
            try db.execute(sql: "DELETE FROM entryPhotos WHERE entryId = ? AND photoId = ?", arguments: [entry.sql, photo.sql])
            guard db.changesCount == 1 else { throw StoreError.notFound(kind: "photo", id: photo.description) }
            try db.execute(
                sql: """
                    UPDATE entryPhotos SET position = (SELECT count(*) FROM entryPhotos later WHERE later.entryId = entryPhotos.entryId
                        AND later.position < entryPhotos.position) WHERE entryId = ?
                    """,
                arguments: [entry.sql])
            return try Self.deleteUnreferenced(db, candidates: [photo.sql])
        }
    }

    public func setProfilePhoto(_ photo: PhotoID?, family: FamilyID, child: ChildID) async throws -> [ReleasedPhotoFile] {
        try await database.writer.write { db in
            let row = try FamilyTable.children.row(db, family: family, id: child)
            let previous: String? = try row.decode(forColumn: "photoId")
            if let photo { try FamilyTable.photos.requireReference(db, family: family, id: photo, field: "photoId") }
            try db.execute(sql: "UPDATE children SET photoId = ? WHERE id = ?", arguments: [photo?.sql, child.sql])
            guard let previous, previous != photo?.sql else { return [] }
            return try Self.deleteUnreferenced(db, candidates: [previous])
        }
    }

    public func profilePhoto(family: FamilyID, child: ChildID) async throws -> Photo? {
        try await database.writer.read { db in
            let row = try FamilyTable.children.row(db, family: family, id: child)
            guard let id: String = try row.decode(forColumn: "photoId"),
                let photo = try Row.fetchOne(db, sql: "SELECT * FROM photos WHERE id = ?", arguments: [id])
            else { return nil }
            return try decodePhoto(photo)
        }
    }

    public func claimThumbnailJobs(worker: String, lease: TimeInterval, limit: Int) async throws -> [Photo] {
        let now = database.clock.now()
        return try await database.writer.write { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT photos.* FROM photos LEFT JOIN thumbnailClaims ON thumbnailClaims.photoId = photos.id
                    WHERE photos.thumbnails = 'pending' AND (thumbnailClaims.photoId IS NULL OR thumbnailClaims.claimedUntil < ?)
                    ORDER BY photos.createdAt, photos.id LIMIT ?
                    """,
                arguments: [now.stored, limit])
            for row in rows {
                try db.execute(
                    sql: """
                        INSERT INTO thumbnailClaims (photoId, worker, claimedUntil) VALUES (?, ?, ?)
                        ON CONFLICT (photoId) DO UPDATE SET worker = excluded.worker, claimedUntil = excluded.claimedUntil
                        """,
                    arguments: [row["id"] as String, worker, now.addingTimeInterval(lease).stored])
            }
            return try rows.map(decodePhoto)
        }
    }

    public func markThumbnails(_ id: PhotoID, ready: Bool) async throws {
        try await database.writer.write { db in
            try db.execute(sql: "UPDATE photos SET thumbnails = ? WHERE id = ?", arguments: [ready ? "ready" : "failed", id.sql])
            try db.execute(sql: "DELETE FROM thumbnailClaims WHERE photoId = ?", arguments: [id.sql])
        }
    }

    public func videos(family: FamilyID, among ids: [PhotoID]) async throws -> [PhotoID: VideoFacts] {
        guard !ids.isEmpty else { return [:] }
        return try await database.writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM photos WHERE familyId = ? AND durationMs IS NOT NULL
                    AND id IN (\(databaseQuestionMarks(count: ids.count)))
                    """,
                arguments: StatementArguments([family.sql] + ids.map(\.sql)))
            var found: [PhotoID: VideoFacts] = [:]
            for photo in try rows.map(decodePhoto) { found[photo.id] = photo.video }
            return found
        }
    }

    public func claimRenditionJob(worker: String, lease: TimeInterval) async throws -> Photo? {
        let now = database.clock.now()
        return try await database.writer.write { db in
            guard let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT photos.* FROM photos LEFT JOIN renditionClaims ON renditionClaims.photoId = photos.id
                    WHERE photos.rendition = 'pending' AND (renditionClaims.photoId IS NULL OR renditionClaims.claimedUntil < ?)
                    ORDER BY photos.createdAt, photos.id LIMIT 1
                    """,
                arguments: [now.stored])
            else { return nil }
            try db.execute(
                sql: """
                    INSERT INTO renditionClaims (photoId, worker, claimedUntil) VALUES (?, ?, ?)
                    ON CONFLICT (photoId) DO UPDATE SET worker = excluded.worker, claimedUntil = excluded.claimedUntil
                    """,
                arguments: [row["id"] as String, worker, now.addingTimeInterval(lease).stored])
            return try decodePhoto(row)
        }
    }

    public func renewRendition(_ id: PhotoID, worker: String, lease: TimeInterval, progress: Int) async throws -> Bool {
        let until = database.clock.now().addingTimeInterval(lease).stored
        return try await database.writer.write { db in
            try db.execute(
                sql: "UPDATE renditionClaims SET claimedUntil = ? WHERE photoId = ? AND worker = ?", arguments: [until, id.sql, worker])
            guard db.changesCount == 1 else { return false }
            try db.execute(
                sql: "UPDATE photos SET renditionProgress = ? WHERE id = ?", arguments: [min(100, max(0, progress)), id.sql])
            return true
        }
    }

    public func markRendition(_ id: PhotoID, ready: Bool) async throws {
        try await database.writer.write { db in
            try db.execute(
                sql: "UPDATE photos SET rendition = ?, renditionProgress = NULL WHERE id = ? AND rendition = 'pending'",
                arguments: [ready ? "ready" : "failed", id.sql])
            try db.execute(sql: "DELETE FROM renditionClaims WHERE photoId = ?", arguments: [id.sql])
        }
    }

    public func deleteUnattached(olderThan age: TimeInterval) async throws -> [ReleasedPhotoFile] {
        let cutoff = database.clock.now().addingTimeInterval(-age).stored
        return try await database.writer.write { db in
            let ids = try String.fetchAll(db, sql: "SELECT id FROM photos WHERE createdAt < ?", arguments: [cutoff])
            return try Self.deleteUnreferenced(db, candidates: ids)
        }
    }

    public func referencedHashes() async throws -> Set<String> {
        try await database.writer.read { db in try Set(String.fetchAll(db, sql: "SELECT DISTINCT sha256 FROM photos")) }
    }

    static func photos(_ db: Database, entry: EntryID) throws -> [Row] {
        try Row.fetchAll(
            db, sql: "SELECT photos.* FROM entryPhotos JOIN photos ON photos.id = entryPhotos.photoId WHERE entryId = ? ORDER BY position",
            arguments: [entry.sql])
    }

    typealias Owner = PhotoOwner

    /// Links photos (of this family; repeats dropped) to an owner that has none, in the order given.
    static func link(_ db: Database, _ photos: [PhotoID], to owner: Owner, family: FamilyID) throws {
        var seen = Set<PhotoID>()
        for (position, photo) in photos.filter({ seen.insert($0).inserted }).enumerated() {
            try FamilyTable.photos.requireReference(db, family: family, id: photo, field: "photoIds")
            try db.execute(
                sql: "INSERT INTO \(owner.table) (\(owner.column), photoId, familyId, position) VALUES (?, ?, ?, ?)",
                arguments: [owner.id, photo.sql, family.sql, position])
        }
    }

    /// The IDs of an owner's photos in their order.
    static func photoIDs(_ db: Database, of owner: Owner) throws -> [String] {
        try String.fetchAll(
            db, sql: "SELECT photoId FROM \(owner.table) WHERE \(owner.column) = ? ORDER BY position", arguments: [owner.id])
    }

    /// Replaces an owner's photos with `photos`; returns the files whose last row went with the dropped ones.
    static func replace(_ db: Database, photos: [PhotoID], of owner: Owner, family: FamilyID) throws -> [ReleasedPhotoFile] {
        let before = try photoIDs(db, of: owner)
        try db.execute(sql: "DELETE FROM \(owner.table) WHERE \(owner.column) = ?", arguments: [owner.id])
        try link(db, photos, to: owner, family: family)
        return try deleteUnreferenced(db, candidates: before)
    }

    /// Deletes those of `candidates` that no entry, event or child uses, and reports the files whose last row went.
    static func deleteUnreferenced(_ db: Database, candidates: [String]) throws -> [ReleasedPhotoFile] {
        var released: [ReleasedPhotoFile] = []
        for id in candidates {
            guard let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT sha256, mimeType FROM photos WHERE id = ?
                    AND NOT EXISTS (SELECT 1 FROM entryPhotos WHERE photoId = photos.id)
                    AND NOT EXISTS (SELECT 1 FROM eventPhotos WHERE photoId = photos.id)
                    AND NOT EXISTS (SELECT 1 FROM children WHERE photoId = photos.id)
                    """,
                arguments: [id])
            else { continue }
            let sha: String = try row.decode(forColumn: "sha256")
            try db.execute(sql: "DELETE FROM photos WHERE id = ?", arguments: [id])
            if try Row.fetchOne(db, sql: "SELECT 1 FROM photos WHERE sha256 = ?", arguments: [sha]) == nil {
                released.append(ReleasedPhotoFile(sha256: sha, mimeType: try row.decode(forColumn: "mimeType")))
            }
        }
        return released
    }

    func decodePhoto(_ row: Row) throws -> Photo {
        try readBack("photo") {
            Photo(
                id: try row.id("id"), familyID: try row.id("familyId"), sha256: try row.decode(forColumn: "sha256"),
                mimeType: try row.decode(forColumn: "mimeType"), byteCount: try row.decode(forColumn: "byteCount"),
                width: try row.decode(forColumn: "width"), height: try row.decode(forColumn: "height"),
                orientation: try row.decode(forColumn: "orientation"), takenLocal: try row.decode(forColumn: "takenLocal"),
                takenOffset: try row.decode(forColumn: "takenOffset"), latitude: try row.decode(forColumn: "latitude"),
                longitude: try row.decode(forColumn: "longitude"), cameraMake: try row.decode(forColumn: "cameraMake"),
                cameraModel: try row.decode(forColumn: "cameraModel"),
                thumbnailsReady: (try row.decode(String.self, forColumn: "thumbnails")) == "ready",
                video: try VideoFacts(
                    durationMilliseconds: row.decode(forColumn: "durationMs"), videoCodec: row.decode(forColumn: "videoCodec"),
                    audioCodec: row.decode(forColumn: "audioCodec"), rendition: row.decode(forColumn: "rendition"),
                    progress: row.decode(forColumn: "renditionProgress")),
                createdAt: try row.timestamp("createdAt"))
        }
    }
}

/// What photos hang on, in order: an entry or an event — and the link table and column that say so, on both engines.
package enum PhotoOwner: Sendable {
    case entry(EntryID)
    case event(EventID)

    package var table: String {
        switch self {
        case .entry: "entryPhotos"
        case .event: "eventPhotos"
        }
    }

    package var column: String {
        switch self {
        case .entry: "entryId"
        case .event: "eventId"
        }
    }

    package var id: String {
        switch self {
        case .entry(let id): id.sql
        case .event(let id): id.sql
        }
    }
}
