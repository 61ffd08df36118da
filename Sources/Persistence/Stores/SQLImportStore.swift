import Diary
import Foundation

/// `ImportStore` over either engine: one transaction per batch, which a dry run rolls back.
public struct SQLImportStore: ImportStore {
    let database: any StoreDatabase

    public init(_ database: any StoreDatabase) { self.database = database }

    public func importBatch(_ batch: ImportBatch, family: FamilyID, source: String, dryRun: Bool) async throws -> ImportOutcome {
        let now = database.clock.now()
        var sealed: [ChildID: Data] = [:]
        for item in batch.children {
            sealed[item.child.id] = try SQLChildStore.seal(item.child.profile.residentNumber, with: database.cipher)
        }
        let sealedNumbers = sealed
        return try await database.bulkWrite(rollingBack: dryRun) { db in
            var writer = BatchWriter(db: db, family: family, source: source, now: now, batch: batch, sealed: sealedNumbers)
            try writer.write()
            return writer.outcome
        }
    }

    /// One batch inside its transaction.
    private struct BatchWriter {
        let db: any SQLSession
        let family: FamilyID
        let source: String
        let now: Date
        let batch: ImportBatch
        let sealed: [ChildID: Data]
        var outcome = ImportOutcome()
        /// Proposed child ID → the child records go to (nil: it was imported before and deleted since).
        var children: [ChildID: ChildID?] = [:]
        var photos: [PhotoID: PhotoID] = [:]

        init(db: any SQLSession, family: FamilyID, source: String, now: Date, batch: ImportBatch, sealed: [ChildID: Data]) {
            self.db = db
            self.family = family
            self.source = source
            self.now = now
            self.batch = batch
            self.sealed = sealed
        }

        mutating func write() throws {
            let proposed = Dictionary(batch.photos.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for item in batch.children { try writeChild(item, photos: proposed) }
            var written: [EntryID] = []
            for item in batch.entries {
                guard try isNew(item.sourceKey, kind: "entries") else { continue }
                var content = item.content
                content.childIDs = content.childIDs.compactMap(child)
                guard !content.childIDs.isEmpty else {
                    outcome.childGone.append(.init(kind: .entry, title: content.title, date: content.date.date))
                    continue
                }
                let photoIDs = try item.photos.map { try photo($0, from: proposed) }
                let entry = try SQLEntryStore.insert(db, family: family, content: content, photos: photoIDs, now: now, indexed: false)
                try remember(item.sourceKey, column: "entryId", id: entry.sql)
                written.append(entry)
                outcome.added["entries", default: 0] += 1
            }
            try db.searchIndex.refresh(db, entries: written)
            for item in batch.events {
                guard try isNew(item.sourceKey, kind: "events") else { continue }
                var details = item.details
                guard let childID = child(details.childID) else {
                    outcome.childGone.append(.init(kind: .event, title: details.title, date: details.date))
                    continue
                }
                details.childID = childID
                let photoIDs = try item.photos.map { try photo($0, from: proposed) }
                let event = try SQLEventStore.insert(db, family: family, details: details, photos: photoIDs, now: now)
                try remember(item.sourceKey, column: "eventId", id: event.id.sql)
                outcome.added["events", default: 0] += 1
            }
            for item in batch.anniversaries {
                guard try isNew(item.sourceKey, kind: "anniversaries") else { continue }
                var details = item.details
                if let proposedChild = details.childID { details.childID = child(proposedChild) }
                let anniversary = try SQLAnniversaryStore.insert(db, family: family, details: details, now: now)
                try remember(item.sourceKey, column: "anniversaryId", id: anniversary.id.sql)
                outcome.added["anniversaries", default: 0] += 1
            }
        }

        private mutating func writeChild(_ item: ImportBatch.ChildItem, photos proposed: [PhotoID: Photo]) throws {
            if let known = try imported(item.sourceKey) {
                children[item.child.id] = .some(try known.optionalString("childId").flatMap(ChildID.init))
                outcome.duplicates["children", default: 0] += 1
                return
            }
            var child = item.child
            child.photoID = try child.photoID.map { try photo($0, from: proposed) }
            try SQLChildStore.insert(db, child, sealed: sealed[item.child.id])
            for measurement in item.measurements {
                try SQLGrowthStore.insert(db, measurement, now: now)
                outcome.added["measurements", default: 0] += 1
            }
            try remember(item.sourceKey, column: "childId", id: child.id.sql)
            children[child.id] = .some(child.id)
            outcome.added["children", default: 0] += 1
        }

        /// Where records about a proposed child go: the child itself, the one an earlier import made, or nil.
        private func child(_ proposed: ChildID) -> ChildID? {
            guard let mapped = children[proposed] else { return proposed }  // a child already in the family
            return mapped
        }

        /// The photo row for a proposed photo, written now if the family does not have its content yet.
        private mutating func photo(_ proposed: PhotoID, from photos: [PhotoID: Photo]) throws -> PhotoID {
            if let id = self.photos[proposed] { return id }
            guard let photo = photos[proposed] else { throw StoreError.unknownReference(field: "photos", id: proposed.sql) }
            if let existing = try db.string("SELECT id FROM photos WHERE familyId = \(family) AND sha256 = \(photo.sha256)").flatMap(PhotoID.init) {
                self.photos[proposed] = existing
                return existing
            }
            try SQLPhotoStore.insert(db, photo, family: family)
            outcome.added["photos", default: 0] += 1
            self.photos[proposed] = photo.id
            return photo.id
        }

        /// What an earlier import of this source made from the record with this key, if it made anything.
        private func imported(_ key: String) throws -> SQLRow? {
            try db.row("SELECT * FROM importedItems WHERE familyId = \(family) AND source = \(source) AND sourceKey = \(key)")
        }

        private mutating func isNew(_ key: String, kind: String) throws -> Bool {
            let known = try imported(key) != nil
            if known { outcome.duplicates[kind, default: 0] += 1 }
            return !known
        }

        /// `column` is one of this type's own names (entryId, eventId, anniversaryId, childId).
        private func remember(_ key: String, column: String, id: String) throws {
            try db.execute(
                """
                INSERT INTO importedItems (familyId, source, sourceKey, \(raw: column), importedAt)
                VALUES (\(family), \(source), \(key), \(id), \(now))
                """)
        }
    }
}
