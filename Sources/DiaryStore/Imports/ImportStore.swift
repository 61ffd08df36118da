import Diary
import Foundation
import GRDB

/// Writes what an importer read, all or nothing, remembering each item by its source so that importing the same
/// source again adds nothing twice. A dry run does the very same writes and rolls them back.
public struct ImportStore: Sendable {
    let database: DiaryDatabase

    public init(_ database: DiaryDatabase) { self.database = database }

    /// An entry an importer made, with the key that identifies it in its source (a hash of its file and text).
    public struct Item: Sendable {
        public let sourceKey: String
        public let content: EntryContent

        public init(sourceKey: String, content: EntryContent) {
            self.sourceKey = sourceKey
            self.content = content
        }
    }

    public struct Outcome: Sendable, Equatable {
        public var added = 0
        /// Items this family already imported from the same source.
        public var duplicates = 0
    }

    public func importEntries(family: FamilyID, source: String, items: [Item], dryRun: Bool) async throws -> Outcome {
        let now = database.clock.now()
        let entries = EntryStore(database)
        return try await database.writer.writeWithoutTransaction { db in
            var outcome = Outcome()
            try db.inTransaction {
                for item in items {
                    let known = try Bool.fetchOne(
                        db, sql: "SELECT EXISTS (SELECT 1 FROM importedItems WHERE familyId = ? AND source = ? AND sourceKey = ?)",
                        arguments: [family.sql, source, item.sourceKey]) ?? false
                    if known {
                        outcome.duplicates += 1
                        continue
                    }
                    let entry = try entries.insert(db, family: family, content: item.content, photos: [], now: now)
                    try db.execute(
                        sql: "INSERT INTO importedItems (familyId, source, sourceKey, entryId, importedAt) VALUES (?, ?, ?, ?, ?)",
                        arguments: [family.sql, source, item.sourceKey, entry.id.sql, now.stored])
                    outcome.added += 1
                }
                return dryRun ? .rollback : .commit
            }
            return outcome
        }
    }
}
