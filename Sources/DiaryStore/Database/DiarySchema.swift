import GRDB
import Persistence

/// The schema, as append-only migrations. A shipped migration is never edited: change the schema by adding one.
///
/// Conventions: IDs are lowercase UUID text; timestamps are UTC `YYYY-MM-DD HH:MM:SS.SSS` (`StoredTime`); calendar dates
/// are `YYYY-MM-DD` text beside an explicit calendar column. Rows point at each other only by ID, and every
/// reference to a child carries the family too (composite foreign keys), so SQLite itself refuses a link
/// between two families.
enum DiarySchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 foundation", migrate: foundation)
        migrator.registerMigration("v2 photos", migrate: photos)
        migrator.registerMigration("v3 search", migrate: search)
        migrator.registerMigration("v4 accounts", migrate: accounts)
        migrator.registerMigration("v5 vaccinations", migrate: vaccinations)
        migrator.registerMigration("v6 calendar feeds", migrate: feeds)
        migrator.registerMigration("v7 event photos", migrate: eventPhotos)
        migrator.registerMigration("v8 imports", migrate: imports)
        migrator.registerMigration("v9 imported records", migrate: importedRecords)
        migrator.registerMigration("v10 shared state", migrate: sharedState)
        migrator.registerMigration("v11 videos", migrate: videos)
        migrator.registerMigration("v12 idempotency keys", migrate: idempotencyKeys)
        migrator.registerMigration("v13 comments and hearts", migrate: reactions)
        migrator.registerMigration("v14 authors and reads", migrate: authorsAndReads)
        migrator.registerMigration("v15 mail", migrate: mail)
        migrator.registerMigration("v16 place regions", migrate: placeRegions)
        migrator.registerMigration("v17 weather", migrate: weather)
        migrator.registerMigration("v18 page indexes", migrate: pageIndexes)
        migrator.registerMigration("v19 entry lists", migrate: entryLists)
        migrator.registerMigration("v20 trash and versions", migrate: trash)
        migrator.registerMigration("v21 activity", migrate: activity)
        migrator.registerMigration("v22 snapshot runs", migrate: snapshotRuns)
        migrator.registerMigration("v23 book jobs", migrate: bookJobs)
        migrator.registerMigration("v24 sign-in methods", migrate: signInMethods)
        return migrator
    }

    /// The search index: one document per entry or memo (`searchDocuments`, kept by the stores in the transaction of
    /// each write) and an FTS5 index over it with Saessak's Korean tokenizer, kept by triggers. The documents are
    /// the index's external content, so deleting one (also by cascade) removes exactly what was indexed.
    /// `family` is the family's ID as one token, so the index itself narrows a search to a family.
    private static func search(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE searchDocuments (
                id INTEGER PRIMARY KEY,
                familyId TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
                entryId TEXT UNIQUE,
                memoId TEXT UNIQUE REFERENCES memos(id) ON DELETE CASCADE,
                family TEXT NOT NULL CHECK (family = replace(familyId, '-', '')),
                title TEXT NOT NULL,
                body TEXT NOT NULL,
                tags TEXT NOT NULL,
                place TEXT NOT NULL,
                FOREIGN KEY (entryId, familyId) REFERENCES entries(id, familyId) ON DELETE CASCADE,
                CHECK ((entryId IS NULL) <> (memoId IS NULL))
            );
            CREATE INDEX searchDocuments_family ON searchDocuments(familyId);
            CREATE VIRTUAL TABLE searchIndex USING fts5(
                family, title, body, tags, place, content = 'searchDocuments', content_rowid = 'id', tokenize = 'saessak');
            CREATE TRIGGER searchDocuments_insert AFTER INSERT ON searchDocuments BEGIN
                INSERT INTO searchIndex (rowid, family, title, body, tags, place)
                VALUES (new.id, new.family, new.title, new.body, new.tags, new.place);
            END;
            CREATE TRIGGER searchDocuments_delete AFTER DELETE ON searchDocuments BEGIN
                INSERT INTO searchIndex (searchIndex, rowid, family, title, body, tags, place)
                VALUES ('delete', old.id, old.family, old.title, old.body, old.tags, old.place);
            END;
            CREATE TRIGGER searchDocuments_update AFTER UPDATE ON searchDocuments BEGIN
                INSERT INTO searchIndex (searchIndex, rowid, family, title, body, tags, place)
                VALUES ('delete', old.id, old.family, old.title, old.body, old.tags, old.place);
                INSERT INTO searchIndex (rowid, family, title, body, tags, place)
                VALUES (new.id, new.family, new.title, new.body, new.tags, new.place);
            END;
            """)
        // The documents of what was written before this version: SQL as of this version, frozen here (a migration
        // never calls application code, which goes on changing after it). The triggers fill the index.
        try db.execute(sql: """
            INSERT INTO searchDocuments (familyId, family, entryId, title, body, tags, place)
            SELECT familyId, replace(familyId, '-', ''), id, title, body,
                coalesce((SELECT group_concat(name, ' ') FROM (
                    SELECT tags.name FROM entryTags JOIN tags ON tags.id = entryTags.tagId
                    WHERE entryTags.entryId = entries.id ORDER BY entryTags.position)), ''),
                coalesce(placeName, '')
            FROM entries;
            INSERT INTO searchDocuments (familyId, family, memoId, title, body, tags, place)
            SELECT familyId, replace(familyId, '-', ''), id, title, body, '', '' FROM memos;
            """)
    }

    /// What the photo pipeline keeps: EXIF capture time (local wall clock and offset as the camera wrote them),
    /// orientation and camera, the state of the thumbnails, one row per family and content, a child's profile photo.
    private static func photos(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE photos ADD COLUMN takenLocal TEXT
                CHECK (takenLocal GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]');
            ALTER TABLE photos ADD COLUMN takenOffset TEXT CHECK (takenOffset GLOB '[+-][0-9][0-9]:[0-9][0-9]');
            ALTER TABLE photos ADD COLUMN orientation INTEGER NOT NULL DEFAULT 1 CHECK (orientation BETWEEN 1 AND 8);
            ALTER TABLE photos ADD COLUMN cameraMake TEXT;
            ALTER TABLE photos ADD COLUMN cameraModel TEXT;
            ALTER TABLE photos ADD COLUMN thumbnails TEXT NOT NULL DEFAULT 'pending'
                CHECK (thumbnails IN ('pending', 'ready', 'failed'));
            CREATE UNIQUE INDEX photos_family_content ON photos(familyId, sha256);
            CREATE INDEX photos_pending ON photos(thumbnails) WHERE thumbnails = 'pending';
            ALTER TABLE children ADD COLUMN photoId TEXT REFERENCES photos(id) ON DELETE SET NULL;
            CREATE INDEX children_photo ON children(photoId);
            """)
    }

    private static func foundation(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE families (
                id TEXT PRIMARY KEY NOT NULL,
                name TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(trim(name)) > 0),
                createdAt DATETIME NOT NULL
            );
            CREATE TABLE users (
                id TEXT PRIMARY KEY NOT NULL,
                username TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(username) BETWEEN 1 AND 64),
                passwordHash TEXT NOT NULL,
                createdAt DATETIME NOT NULL
            );
            CREATE TABLE memberships (
                familyId TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
                userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                role TEXT NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
                createdAt DATETIME NOT NULL,
                PRIMARY KEY (familyId, userId)
            );
            CREATE INDEX memberships_user ON memberships(userId);
            CREATE TABLE apiTokens (
                id TEXT PRIMARY KEY NOT NULL,
                familyId TEXT NOT NULL,
                userId TEXT NOT NULL,
                digest BLOB NOT NULL UNIQUE CHECK (length(digest) = 32),
                name TEXT NOT NULL,
                createdAt DATETIME NOT NULL,
                FOREIGN KEY (familyId, userId) REFERENCES memberships(familyId, userId) ON DELETE CASCADE
            );
            CREATE INDEX apiTokens_membership ON apiTokens(familyId, userId);

            CREATE TABLE children (
                id TEXT PRIMARY KEY NOT NULL,
                familyId TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
                name TEXT NOT NULL CHECK (length(trim(name)) > 0),
                nickname TEXT,
                birthDate TEXT NOT NULL CHECK (birthDate GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
                birthCalendar TEXT NOT NULL CHECK (birthCalendar IN ('solar', 'lunar')),
                isLeapMonth BOOLEAN NOT NULL DEFAULT 0 CHECK (isLeapMonth = 0 OR birthCalendar = 'lunar'),
                birthTime TEXT CHECK (birthTime GLOB '[0-2][0-9]:[0-5][0-9]'),
                sex TEXT CHECK (sex IN ('female', 'male')),
                birthplace TEXT,
                hospital TEXT,
                residentNumberSealed BLOB, -- AES-GCM (Secrets.FieldCipher); never plain text
                createdAt DATETIME NOT NULL,
                modifiedAt DATETIME NOT NULL,
                UNIQUE (id, familyId)
            );
            CREATE INDEX children_family ON children(familyId, createdAt, id);

            CREATE TABLE entries (
                id TEXT PRIMARY KEY NOT NULL,
                familyId TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
                title TEXT NOT NULL,
                body TEXT NOT NULL,
                localDateTime TEXT NOT NULL
                    CHECK (localDateTime GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-2][0-9]:[0-5][0-9]'),
                timeZone TEXT NOT NULL,
                weather TEXT,
                placeName TEXT,
                latitude REAL CHECK (latitude BETWEEN -90 AND 90),
                longitude REAL CHECK (longitude BETWEEN -180 AND 180),
                createdAt DATETIME NOT NULL,
                modifiedAt DATETIME NOT NULL,
                CHECK ((latitude IS NULL) = (longitude IS NULL)),
                UNIQUE (id, familyId)
            );
            -- The timeline: a family's entries newest first, paged by (localDateTime, id).
            CREATE INDEX entries_timeline ON entries(familyId, localDateTime DESC, id DESC);

            CREATE TABLE entryChildren (
                entryId TEXT NOT NULL,
                childId TEXT NOT NULL,
                familyId TEXT NOT NULL,
                position INTEGER NOT NULL,
                PRIMARY KEY (entryId, childId),
                FOREIGN KEY (entryId, familyId) REFERENCES entries(id, familyId) ON DELETE CASCADE,
                FOREIGN KEY (childId, familyId) REFERENCES children(id, familyId) ON DELETE CASCADE
            );
            CREATE INDEX entryChildren_child ON entryChildren(childId, entryId);

            CREATE TABLE tags (
                id TEXT PRIMARY KEY NOT NULL,
                familyId TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
                name TEXT NOT NULL COLLATE NOCASE,
                UNIQUE (familyId, name),
                UNIQUE (id, familyId)
            );
            CREATE TABLE entryTags (
                entryId TEXT NOT NULL,
                tagId TEXT NOT NULL,
                familyId TEXT NOT NULL,
                position INTEGER NOT NULL,
                PRIMARY KEY (entryId, tagId),
                FOREIGN KEY (entryId, familyId) REFERENCES entries(id, familyId) ON DELETE CASCADE,
                FOREIGN KEY (tagId, familyId) REFERENCES tags(id, familyId) ON DELETE CASCADE
            );
            CREATE INDEX entryTags_tag ON entryTags(tagId, entryId);

            CREATE TABLE photos (
                id TEXT PRIMARY KEY NOT NULL,
                familyId TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
                sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
                mimeType TEXT NOT NULL,
                byteCount INTEGER NOT NULL CHECK (byteCount > 0),
                width INTEGER NOT NULL CHECK (width > 0),
                height INTEGER NOT NULL CHECK (height > 0),
                takenAt DATETIME,
                latitude REAL CHECK (latitude BETWEEN -90 AND 90),
                longitude REAL CHECK (longitude BETWEEN -180 AND 180),
                createdAt DATETIME NOT NULL,
                UNIQUE (id, familyId)
            );
            CREATE INDEX photos_sha256 ON photos(sha256);
            CREATE TABLE entryPhotos (
                entryId TEXT NOT NULL,
                photoId TEXT NOT NULL,
                familyId TEXT NOT NULL,
                position INTEGER NOT NULL,
                PRIMARY KEY (entryId, photoId),
                UNIQUE (entryId, position),
                FOREIGN KEY (entryId, familyId) REFERENCES entries(id, familyId) ON DELETE CASCADE,
                FOREIGN KEY (photoId, familyId) REFERENCES photos(id, familyId) ON DELETE CASCADE
            );
            CREATE INDEX entryPhotos_photo ON entryPhotos(photoId);

            CREATE TABLE events (
                id TEXT PRIMARY KEY NOT NULL,
                familyId TEXT NOT NULL,
                childId TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('hospital', 'milestone', 'other')),
                title TEXT NOT NULL,
                date TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
                time TEXT CHECK (time GLOB '[0-2][0-9]:[0-5][0-9]'),
                notes TEXT,
                hospital TEXT,
                doctor TEXT,
                diagnosis TEXT,
                createdAt DATETIME NOT NULL,
                modifiedAt DATETIME NOT NULL,
                FOREIGN KEY (childId, familyId) REFERENCES children(id, familyId) ON DELETE CASCADE
            );
            CREATE INDEX events_family ON events(familyId, date DESC, id DESC);
            CREATE INDEX events_child ON events(childId);

            CREATE TABLE anniversaries (
                id TEXT PRIMARY KEY NOT NULL,
                familyId TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
                childId TEXT,
                name TEXT NOT NULL,
                calendar TEXT NOT NULL CHECK (calendar IN ('solar', 'lunar')),
                month INTEGER NOT NULL CHECK (month BETWEEN 1 AND 12),
                day INTEGER NOT NULL CHECK (day BETWEEN 1 AND 31 AND (calendar = 'solar' OR day <= 30)),
                isLeapMonth BOOLEAN NOT NULL DEFAULT 0 CHECK (isLeapMonth = 0 OR calendar = 'lunar'),
                isHoliday BOOLEAN NOT NULL DEFAULT 0,
                createdAt DATETIME NOT NULL,
                modifiedAt DATETIME NOT NULL,
                FOREIGN KEY (childId, familyId) REFERENCES children(id, familyId) ON DELETE CASCADE
            );
            CREATE INDEX anniversaries_family ON anniversaries(familyId, month, day);
            CREATE INDEX anniversaries_child ON anniversaries(childId);

            CREATE TABLE memos (
                id TEXT PRIMARY KEY NOT NULL,
                familyId TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
                title TEXT NOT NULL,
                body TEXT NOT NULL,
                createdAt DATETIME NOT NULL,
                modifiedAt DATETIME NOT NULL
            );
            CREATE INDEX memos_recent ON memos(familyId, modifiedAt DESC, id DESC);

            CREATE TABLE growthMeasurements (
                id TEXT PRIMARY KEY NOT NULL,
                childId TEXT NOT NULL REFERENCES children(id) ON DELETE CASCADE,
                kind TEXT NOT NULL CHECK (kind IN ('height', 'weight', 'head')),
                value REAL NOT NULL CHECK (value > 0),
                unit TEXT NOT NULL CHECK (unit IN ('cm', 'kg') AND (unit = 'kg') = (kind = 'weight')),
                date TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
                createdAt DATETIME NOT NULL
            );
            CREATE INDEX growthMeasurements_child ON growthMeasurements(childId, date);
            """)
    }
}
