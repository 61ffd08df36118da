import GRDB
import Persistence

/// The migrations after the first three (v4 accounts to v19; v20 is `DiarySchema+Trash`), newest first;
/// `DiarySchema.migrator` lists them in order. Shipped migrations are never edited.
extension DiarySchema {
    /// An entry's children, tags and photos in their order from one index each, the columns a list reads in it: every
    /// page of entries reads them for its entries by id, and from the primary keys each row cost a second lookup in
    /// the table and the order a sort (docs/performance.md).
    static func entryLists(_ db: Database) throws {
        try db.execute(sql: """
            CREATE INDEX entryChildren_entry ON entryChildren(entryId, position, childId);
            CREATE INDEX entryTags_entry ON entryTags(entryId, position, tagId);
            CREATE INDEX entryPhotos_entry ON entryPhotos(entryId, position, photoId);
            """)
    }

    /// What the home page and the timeline ask of a large diary, each answered from an index whatever the planner
    /// knows of the data (docs/performance.md): an author's entries since a time (a member's news), and the entries of
    /// a month and day of any year or of given days ("on this day", by the solar and the lunar calendar).
    static func pageIndexes(_ db: Database) throws {
        try db.execute(sql: """
            CREATE INDEX entries_news ON entries(familyId, authorId, createdAt);
            CREATE INDEX entries_month_day ON entries(familyId, substr(localDateTime, 6, 5));
            CREATE INDEX entries_day ON entries(familyId, substr(localDateTime, 1, 10));
            """)
    }

    /// Who wrote an entry (null for imports and older entries: never "new" to anyone), and which member has seen
    /// which entry: what is new to a member is what others wrote since they joined that they have not opened.
    /// Whether a family looks up its entries' weather (off until an owner turns it on; backed up), and the archive's
    /// answers by cell and day (not backed up: asked again if lost).
    static func weather(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE families ADD COLUMN weatherLookup BOOLEAN NOT NULL DEFAULT 0;
            CREATE TABLE weatherCache (
                cell TEXT NOT NULL,
                date TEXT NOT NULL,
                code INTEGER,
                high REAL,
                low REAL,
                fetchedAt DATETIME NOT NULL,
                PRIMARY KEY (cell, date)
            );
            """)
    }

    /// The Korean place an entry's coordinates lie in, as text (`서울특별시 마포구 연남동`), written with the entry from
    /// the bundled place data: what search finds by 동 name (docs/place.md).
    static func placeRegions(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE entries ADD COLUMN placeRegion TEXT")
    }

    /// Members' e-mail choices (backed up with their membership) and the outbox (not backed up: what was sent from
    /// this database, each message rendered once and sent at most once).
    static func mail(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE memberships ADD COLUMN mailAddress TEXT CHECK (mailAddress IS NULL OR length(mailAddress) BETWEEN 3 AND 254);
            ALTER TABLE memberships ADD COLUMN mailDigest TEXT NOT NULL DEFAULT 'off' CHECK (mailDigest IN ('off', 'daily', 'weekly'));
            ALTER TABLE memberships ADD COLUMN mailReminders BOOLEAN NOT NULL DEFAULT 0;
            ALTER TABLE memberships ADD COLUMN mailLanguage TEXT NOT NULL DEFAULT 'ko' CHECK (mailLanguage IN ('ko', 'en'));
            ALTER TABLE memberships ADD COLUMN mailSince DATETIME;
            CREATE TABLE mailOutbox (
                id TEXT PRIMARY KEY,
                familyId TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
                userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                key TEXT NOT NULL,
                recipient TEXT NOT NULL,
                messageId TEXT NOT NULL,
                message BLOB NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'sent', 'failed', 'unknown', 'skipped')),
                attempts INTEGER NOT NULL DEFAULT 0,
                nextAttemptAt DATETIME NOT NULL,
                claimedAt DATETIME,
                lastError TEXT,
                createdAt DATETIME NOT NULL,
                sentAt DATETIME,
                UNIQUE (familyId, userId, key)
            );
            CREATE INDEX mailOutbox_due ON mailOutbox(nextAttemptAt) WHERE state = 'queued';
            """)
    }

    static func authorsAndReads(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE entries ADD COLUMN authorId TEXT REFERENCES users(id) ON DELETE SET NULL;
            CREATE INDEX entries_author ON entries(familyId, createdAt) WHERE authorId IS NOT NULL;
            CREATE TABLE entryReads (
                familyId TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
                entryId TEXT NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
                userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                readAt DATETIME NOT NULL,
                PRIMARY KEY (entryId, userId)
            );
            CREATE INDEX entryReads_user ON entryReads(userId, familyId);
            """)
    }

    /// Comments and hearts on an entry or one photo, by any member (viewers too). A comment outlives its author's
    /// account (`authorId` null: "a former member"); a heart goes with it. Both go with their entry or photo.
    static func reactions(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE comments (
                id TEXT PRIMARY KEY NOT NULL,
                familyId TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
                entryId TEXT REFERENCES entries(id) ON DELETE CASCADE,
                photoId TEXT REFERENCES photos(id) ON DELETE CASCADE,
                authorId TEXT REFERENCES users(id) ON DELETE SET NULL,
                body TEXT NOT NULL CHECK (length(body) > 0),
                createdAt DATETIME NOT NULL,
                modifiedAt DATETIME NOT NULL,
                CHECK ((entryId IS NULL) <> (photoId IS NULL))
            );
            CREATE INDEX comments_entry ON comments(entryId, createdAt) WHERE entryId IS NOT NULL;
            CREATE INDEX comments_photo ON comments(photoId, createdAt) WHERE photoId IS NOT NULL;
            CREATE TABLE hearts (
                id TEXT PRIMARY KEY NOT NULL,
                familyId TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
                entryId TEXT REFERENCES entries(id) ON DELETE CASCADE,
                photoId TEXT REFERENCES photos(id) ON DELETE CASCADE,
                userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                createdAt DATETIME NOT NULL,
                CHECK ((entryId IS NULL) <> (photoId IS NULL))
            );
            CREATE UNIQUE INDEX hearts_entry ON hearts(entryId, userId) WHERE entryId IS NOT NULL;
            CREATE UNIQUE INDEX hearts_photo ON hearts(photoId, userId) WHERE photoId IS NOT NULL;
            """)
    }

    /// A client's key for a new entry (an offline draft sent again after its answer was lost), honoured for a day:
    /// the key is claimed with its row before the entry is written, in the same transaction. Not backed up.
    static func idempotencyKeys(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE idempotencyKeys (
                familyId TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
                key TEXT NOT NULL,
                entryId TEXT REFERENCES entries(id) ON DELETE SET NULL,
                createdAt DATETIME NOT NULL,
                PRIMARY KEY (familyId, key)
            );
            """)
    }

    /// Video clips are rows of `photos` (they go wherever photos go) with a length, codecs, and the state of their
    /// web rendition: 'none' when the original plays in browsers. Rendition jobs are claimed like thumbnail jobs,
    /// with a progress the entry shows. The claims and the progress are not backed up; a restored 'ready' or
    /// 'failed' rendition is made again.
    static func videos(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE photos ADD COLUMN durationMs INTEGER CHECK (durationMs > 0);
            ALTER TABLE photos ADD COLUMN videoCodec TEXT;
            ALTER TABLE photos ADD COLUMN audioCodec TEXT;
            ALTER TABLE photos ADD COLUMN rendition TEXT NOT NULL DEFAULT 'none'
                CHECK (rendition IN ('none', 'pending', 'ready', 'failed'));
            ALTER TABLE photos ADD COLUMN renditionProgress INTEGER CHECK (renditionProgress BETWEEN 0 AND 100);
            CREATE INDEX photos_rendition_pending ON photos(createdAt) WHERE rendition = 'pending';
            CREATE TABLE renditionClaims (
                photoId TEXT PRIMARY KEY NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
                worker TEXT NOT NULL,
                claimedUntil DATETIME NOT NULL
            );
            """)
    }
    /// What several servers on one database share, kept in the database for SQLite too (one way to do it): who holds
    /// which thumbnail job until when (a server that dies mid-job lets its claim run out), and recent wrong passwords
    /// per account and per address (sign-in throttling). Neither is backed up.
    static func sharedState(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE thumbnailClaims (
                photoId TEXT PRIMARY KEY NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
                worker TEXT NOT NULL,
                claimedUntil DATETIME NOT NULL
            );
            CREATE TABLE loginFailures (
                key TEXT NOT NULL,
                failedAt DATETIME NOT NULL
            );
            CREATE INDEX loginFailures_key ON loginFailures(key, failedAt);
            """)
    }

    /// Imports bring children, events and anniversaries too (the legacy iPhone app): each is remembered by its
    /// source key like an entry, so a second import finds the child it made the first time.
    static func importedRecords(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE importedItems ADD COLUMN childId TEXT REFERENCES children(id) ON DELETE SET NULL;
            ALTER TABLE importedItems ADD COLUMN eventId TEXT REFERENCES events(id) ON DELETE SET NULL;
            ALTER TABLE importedItems ADD COLUMN anniversaryId TEXT REFERENCES anniversaries(id) ON DELETE SET NULL;
            CREATE INDEX importedItems_child ON importedItems(childId);
            CREATE INDEX importedItems_event ON importedItems(eventId);
            CREATE INDEX importedItems_anniversary ON importedItems(anniversaryId);
            """)
    }

    /// What imports brought in, by where it came from: importing the same source again adds nothing twice.
    static func imports(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE importedItems (
                familyId TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
                source TEXT NOT NULL,
                sourceKey TEXT NOT NULL,
                entryId TEXT REFERENCES entries(id) ON DELETE SET NULL,
                importedAt DATETIME NOT NULL,
                PRIMARY KEY (familyId, source, sourceKey)
            );
            CREATE INDEX importedItems_entry ON importedItems(entryId);
            """)
    }

    /// Photos of an event (a prescription, the hospital's note), in order. The unique index lets the link carry the
    /// family, like every other link.
    static func eventPhotos(_ db: Database) throws {
        try db.execute(sql: """
            CREATE UNIQUE INDEX events_id_family ON events(id, familyId);
            CREATE TABLE eventPhotos (
                eventId TEXT NOT NULL,
                photoId TEXT NOT NULL,
                familyId TEXT NOT NULL,
                position INTEGER NOT NULL,
                PRIMARY KEY (eventId, photoId),
                UNIQUE (eventId, position),
                FOREIGN KEY (eventId, familyId) REFERENCES events(id, familyId) ON DELETE CASCADE,
                FOREIGN KEY (photoId, familyId) REFERENCES photos(id, familyId) ON DELETE CASCADE
            );
            CREATE INDEX eventPhotos_photo ON eventPhotos(photoId);
            """)
    }

    /// Calendar feeds: a secret URL per feed (only its hash kept), revoked by deleting the row.
    static func feeds(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE calendarFeeds (
                id TEXT PRIMARY KEY NOT NULL,
                familyId TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
                digest BLOB NOT NULL UNIQUE CHECK (length(digest) = 32),
                label TEXT,
                includesHolidays BOOLEAN NOT NULL DEFAULT 0,
                createdBy TEXT REFERENCES users(id) ON DELETE SET NULL,
                createdAt DATETIME NOT NULL
            );
            CREATE INDEX calendarFeeds_family ON calendarFeeds(familyId, createdAt DESC);
            """)
    }

    /// Vaccinations: shots given (a product on a day; a combination counts for each component), the alternatives a
    /// family chose per child (RV1/RV5, IJEV/LJEV), and doses marked as not to be given.
    static func vaccinations(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE vaccinations (
                id TEXT PRIMARY KEY NOT NULL,
                familyId TEXT NOT NULL,
                childId TEXT NOT NULL,
                product TEXT NOT NULL CHECK (product IN ('bcg', 'hepB', 'dtap', 'tdap', 'ipv', 'hib', 'pcv', 'rv1', 'rv5',
                    'mmr', 'varicella', 'hepA', 'ijev', 'ljev', 'hpv', 'influenza', 'dtapIpv', 'dtapIpvHib')),
                date TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
                place TEXT,
                lot TEXT,
                productName TEXT,
                createdAt DATETIME NOT NULL,
                FOREIGN KEY (childId, familyId) REFERENCES children(id, familyId) ON DELETE CASCADE
            );
            CREATE INDEX vaccinations_child ON vaccinations(childId, date);
            CREATE TABLE vaccinationChoices (
                childId TEXT NOT NULL,
                familyId TEXT NOT NULL,
                choice TEXT NOT NULL CHECK (choice IN ('rotavirus', 'japaneseEncephalitis')),
                vaccine TEXT NOT NULL CHECK (vaccine IN ('rv1', 'rv5', 'ijev', 'ljev')),
                PRIMARY KEY (childId, choice),
                FOREIGN KEY (childId, familyId) REFERENCES children(id, familyId) ON DELETE CASCADE
            );
            CREATE TABLE vaccinationSkips (
                childId TEXT NOT NULL,
                familyId TEXT NOT NULL,
                vaccine TEXT NOT NULL,
                number INTEGER NOT NULL CHECK (number >= 1),
                PRIMARY KEY (childId, vaccine, number),
                FOREIGN KEY (childId, familyId) REFERENCES children(id, familyId) ON DELETE CASCADE
            );
            """)
    }

    /// Accounts and sharing: a role an API token is limited to; web sessions (only a hash of the cookie is kept,
    /// like tokens), each with its CSRF token and the family it currently acts for; invitations (single use, with a
    /// role and an end); read-only share links for chosen entries. Links and invitations keep only a hash too.
    static func accounts(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE apiTokens ADD COLUMN role TEXT CHECK (role IN ('owner', 'editor', 'viewer'));
            CREATE TABLE sessions (
                id TEXT PRIMARY KEY NOT NULL,
                digest BLOB NOT NULL UNIQUE CHECK (length(digest) = 32),
                userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                familyId TEXT REFERENCES families(id) ON DELETE SET NULL,
                csrfToken TEXT NOT NULL CHECK (length(csrfToken) >= 32),
                createdAt DATETIME NOT NULL,
                lastSeenAt DATETIME NOT NULL,
                expiresAt DATETIME NOT NULL
            );
            CREATE INDEX sessions_user ON sessions(userId);

            CREATE TABLE invitations (
                id TEXT PRIMARY KEY NOT NULL,
                familyId TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
                role TEXT NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
                digest BLOB NOT NULL UNIQUE CHECK (length(digest) = 32),
                createdBy TEXT REFERENCES users(id) ON DELETE SET NULL,
                createdAt DATETIME NOT NULL,
                expiresAt DATETIME NOT NULL,
                acceptedAt DATETIME,
                acceptedBy TEXT REFERENCES users(id) ON DELETE SET NULL
            );
            CREATE INDEX invitations_family ON invitations(familyId, createdAt DESC);

            CREATE TABLE shareLinks (
                id TEXT PRIMARY KEY NOT NULL,
                familyId TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
                digest BLOB NOT NULL UNIQUE CHECK (length(digest) = 32),
                label TEXT,
                createdBy TEXT REFERENCES users(id) ON DELETE SET NULL,
                createdAt DATETIME NOT NULL,
                expiresAt DATETIME NOT NULL,
                UNIQUE (id, familyId)
            );
            CREATE INDEX shareLinks_family ON shareLinks(familyId, createdAt DESC);
            CREATE TABLE shareLinkEntries (
                shareLinkId TEXT NOT NULL,
                entryId TEXT NOT NULL,
                familyId TEXT NOT NULL,
                position INTEGER NOT NULL,
                PRIMARY KEY (shareLinkId, entryId),
                FOREIGN KEY (shareLinkId, familyId) REFERENCES shareLinks(id, familyId) ON DELETE CASCADE,
                FOREIGN KEY (entryId, familyId) REFERENCES entries(id, familyId) ON DELETE CASCADE
            );
            CREATE INDEX shareLinkEntries_entry ON shareLinkEntries(entryId);
            """)
    }
}
