import Diary
import DiaryStore
import Foundation
import Persistence

/// `ImportStore` over PostgreSQL: one batch in one transaction (rolled back for a dry run), each record remembered by
/// its source key, as `SQLiteImportStore` does.
public struct PostgresImportStore: ImportStore {
    let database: PostgresDatabase

    public init(_ database: PostgresDatabase) { self.database = database }

    public func importBatch(_ batch: ImportBatch, family: FamilyID, source: String, dryRun: Bool) async throws -> ImportOutcome {
        let now = database.clock.now()
        // Resident numbers are sealed before the transaction (the cipher is not the database's to call inside it).
        var sealed: [ChildID: Data] = [:]
        for item in batch.children {
            if let number = item.child.profile.residentNumber { sealed[item.child.id] = try database.cipher.seal(number.formatted) }
        }
        let sealedNumbers = sealed
        return try await database.writeAsync(rollingBack: dryRun) { db in
            var writer = BatchWriter(db: db, family: family, source: source, now: now, batch: batch, sealed: sealedNumbers)
            try await writer.write()
            return writer.outcome
        }
    }

    private struct BatchWriter {
        let db: PostgresTransaction
        let family: FamilyID
        let source: String
        let now: Date
        let batch: ImportBatch
        let sealed: [ChildID: Data]
        var outcome = ImportOutcome()
        /// Proposed child ID → the child records go to (nil: it was imported before and deleted since).
        var children: [ChildID: ChildID?] = [:]
        var photos: [PhotoID: PhotoID] = [:]

        init(db: PostgresTransaction, family: FamilyID, source: String, now: Date, batch: ImportBatch, sealed: [ChildID: Data]) {
            self.db = db
            self.family = family
            self.source = source
            self.now = now
            self.batch = batch
            self.sealed = sealed
        }

        mutating func write() async throws {
            let proposed = Dictionary(batch.photos.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for item in batch.children { try await writeChild(item, photos: proposed) }
            for item in batch.entries {
                guard try await isNew(item.sourceKey, kind: "entries") else { continue }
                var content = item.content
                content.childIDs = content.childIDs.compactMap(child)
                guard !content.childIDs.isEmpty else {
                    outcome.skipped.append("entry '\(content.title)' (\(content.date.date.iso)): its child was deleted after an earlier import")
                    continue
                }
                var photoIDs: [PhotoID] = []
                for photo in item.photos { photoIDs.append(try await self.photo(photo, from: proposed)) }
                let entry = try await PostgresEntryStore.insert(db, family: family, content: content, photos: photoIDs, now: now)
                try await remember(item.sourceKey, column: "entryId", id: entry.id.sql)
                outcome.added["entries", default: 0] += 1
            }
            for item in batch.events {
                guard try await isNew(item.sourceKey, kind: "events") else { continue }
                var details = item.details
                guard let childID = child(details.childID) else {
                    outcome.skipped.append("event '\(details.title)' (\(details.date.iso)): its child was deleted after an earlier import")
                    continue
                }
                details.childID = childID
                var photoIDs: [PhotoID] = []
                for photo in item.photos { photoIDs.append(try await self.photo(photo, from: proposed)) }
                let event = try await db.session { [family, details, photoIDs, now] in
                    try SQLEventStore.insert($0, family: family, details: details, photos: photoIDs, now: now)
                }
                try await remember(item.sourceKey, column: "eventId", id: event.id.sql)
                outcome.added["events", default: 0] += 1
            }
            for item in batch.anniversaries {
                guard try await isNew(item.sourceKey, kind: "anniversaries") else { continue }
                var details = item.details
                if let proposedChild = details.childID { details.childID = child(proposedChild) }
                let anniversary = try await db.session { [family, details, now] in
                    try SQLAnniversaryStore.insert($0, family: family, details: details, now: now)
                }
                try await remember(item.sourceKey, column: "anniversaryId", id: anniversary.id.sql)
                outcome.added["anniversaries", default: 0] += 1
            }
        }

        private mutating func writeChild(_ item: ImportBatch.ChildItem, photos proposed: [PhotoID: Photo]) async throws {
            if let known = try await imported(item.sourceKey) {
                children[item.child.id] = .some(try known.optionalString("childId").flatMap(ChildID.init))
                outcome.duplicates["children", default: 0] += 1
                return
            }
            var child = item.child
            if let photoID = child.photoID { child.photoID = try await photo(photoID, from: proposed) }
            try await PostgresChildStore.insert(db, child, sealed: sealed[item.child.id])
            for measurement in item.measurements {
                try await db.session { [now] in try SQLGrowthStore.insert($0, measurement, now: now) }
                outcome.added["measurements", default: 0] += 1
            }
            try await remember(item.sourceKey, column: "childId", id: child.id.sql)
            children[child.id] = .some(child.id)
            outcome.added["children", default: 0] += 1
        }

        private func child(_ proposed: ChildID) -> ChildID? {
            guard let mapped = children[proposed] else { return proposed }  // a child already in the family
            return mapped
        }

        private mutating func photo(_ proposed: PhotoID, from photos: [PhotoID: Photo]) async throws -> PhotoID {
            if let id = self.photos[proposed] { return id }
            guard let photo = photos[proposed] else { throw StoreError.unknownReference(field: "photos", id: proposed.sql) }
            if let existing = try await db.string(
                "SELECT id FROM photos WHERE familyId = ? AND sha256 = ?", [family.sql, photo.sha256]
            ).flatMap(PhotoID.init) {
                self.photos[proposed] = existing
                return existing
            }
            try await db.session { [family] in try SQLPhotoStore.insert($0, photo, family: family) }
            outcome.added["photos", default: 0] += 1
            self.photos[proposed] = photo.id
            return photo.id
        }

        private func imported(_ key: String) async throws -> PostgresRecord? {
            try await db.row(
                "SELECT * FROM importedItems WHERE familyId = ? AND source = ? AND sourceKey = ?", [family.sql, source, key])
        }

        private mutating func isNew(_ key: String, kind: String) async throws -> Bool {
            let known = try await imported(key) != nil
            if known { outcome.duplicates[kind, default: 0] += 1 }
            return !known
        }

        private func remember(_ key: String, column: String, id: String) async throws {
            try await db.execute(
                "INSERT INTO importedItems (familyId, source, sourceKey, \(column), importedAt) VALUES (?, ?, ?, ?, ?)",
                [family.sql, source, key, id, now.stored])
        }
    }
}
