import GRDB
import Persistence

/// "v20 trash and versions", in a file of its own (`DiarySchema+Later` holds v4–v19).
/// Shipped migrations are never edited.
extension DiarySchema {
    /// The family's trash (docs/trash.md): each deleted item with its rows as they were (`snapshot`, JSON) until it is
    /// restored or purged, the photos it keeps from being deleted (no cascade from `photos`: a photo row a trashed
    /// item holds cannot go), and what it holds by kind and id (a child's entries and visits: what a photo or a
    /// comment waits for). A family keeps its trash `trashDays` days. And each entry's earlier versions (`content`,
    /// JSON), each with the photos it showed, held as the trash holds them.
    static func trash(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE families ADD COLUMN trashDays INTEGER NOT NULL DEFAULT 30 CHECK (trashDays BETWEEN 7 AND 365);
            CREATE TABLE trashItems (
                id TEXT PRIMARY KEY NOT NULL,
                familyId TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
                kind TEXT NOT NULL CHECK (kind IN ('entry', 'photo', 'memo', 'comment', 'child', 'event', 'anniversary', 'measurement', 'vaccination')),
                itemId TEXT NOT NULL,
                parentKind TEXT CHECK (parentKind IN ('entry', 'photo', 'memo', 'comment', 'child', 'event', 'anniversary', 'measurement', 'vaccination')),
                parentId TEXT,
                label TEXT NOT NULL,
                deletedBy TEXT REFERENCES users(id) ON DELETE SET NULL,
                deletedAt DATETIME NOT NULL,
                shareLinks INTEGER NOT NULL DEFAULT 0 CHECK (shareLinks >= 0),
                snapshot TEXT NOT NULL,
                residentNumberSealed BLOB, -- a trashed child's, sealed as in children (Secrets.FieldCipher)
                CHECK ((parentKind IS NULL) = (parentId IS NULL)),
                UNIQUE (id, familyId)
            );
            CREATE INDEX trashItems_family ON trashItems(familyId, deletedAt DESC, id DESC);
            CREATE INDEX trashItems_item ON trashItems(familyId, kind, itemId);
            CREATE INDEX trashItems_due ON trashItems(deletedAt);
            CREATE TABLE trashPhotos (
                trashId TEXT NOT NULL,
                photoId TEXT NOT NULL,
                familyId TEXT NOT NULL,
                position INTEGER NOT NULL,
                PRIMARY KEY (trashId, photoId),
                FOREIGN KEY (trashId, familyId) REFERENCES trashItems(id, familyId) ON DELETE CASCADE,
                FOREIGN KEY (photoId, familyId) REFERENCES photos(id, familyId)
            );
            CREATE INDEX trashPhotos_photo ON trashPhotos(photoId);
            CREATE TABLE trashContents (
                trashId TEXT NOT NULL,
                familyId TEXT NOT NULL,
                kind TEXT NOT NULL,
                itemId TEXT NOT NULL,
                PRIMARY KEY (trashId, kind, itemId),
                FOREIGN KEY (trashId, familyId) REFERENCES trashItems(id, familyId) ON DELETE CASCADE
            );
            CREATE INDEX trashContents_item ON trashContents(familyId, kind, itemId);
            CREATE TABLE entryVersions (
                id TEXT PRIMARY KEY NOT NULL,
                entryId TEXT NOT NULL,
                familyId TEXT NOT NULL,
                number INTEGER NOT NULL CHECK (number >= 1),
                content TEXT NOT NULL,
                savedAt DATETIME NOT NULL,
                savedBy TEXT REFERENCES users(id) ON DELETE SET NULL,
                replacedAt DATETIME NOT NULL,
                replacedBy TEXT REFERENCES users(id) ON DELETE SET NULL,
                UNIQUE (entryId, number),
                UNIQUE (id, familyId),
                FOREIGN KEY (entryId, familyId) REFERENCES entries(id, familyId) ON DELETE CASCADE
            );
            CREATE TABLE entryVersionPhotos (
                versionId TEXT NOT NULL,
                photoId TEXT NOT NULL,
                familyId TEXT NOT NULL,
                position INTEGER NOT NULL,
                PRIMARY KEY (versionId, photoId),
                FOREIGN KEY (versionId, familyId) REFERENCES entryVersions(id, familyId) ON DELETE CASCADE,
                FOREIGN KEY (photoId, familyId) REFERENCES photos(id, familyId)
            );
            CREATE INDEX entryVersionPhotos_photo ON entryVersionPhotos(photoId);
            """)
    }
}
