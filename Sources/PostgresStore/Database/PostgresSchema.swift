/// The PostgreSQL schema, as append-only migrations (a shipped one is never edited: change the schema by adding one).
///
/// It holds the same tables, columns and constraints as the SQLite schema (`DiarySchema`) at the version named by
/// `dataSchema`, so a backup from either engine restores into the other: IDs are lowercase UUID text, timestamps
/// `YYYY-MM-DD HH:MM:SS.SSS` text, calendar dates `YYYY-MM-DD` text, and every reference to a child carries the family
/// too. Text compares byte by byte (`COLLATE "C"`), as in SQLite, whatever the database's locale: keyset paging and
/// date ranges order text, and must order it the same way on both engines. Names SQLite compares without regard to
/// ASCII case (`COLLATE NOCASE`) are unique here by `lower(…)`, which in the C collation folds ASCII only, as NOCASE does.
enum PostgresSchema {
    struct Migration {
        let name: String
        let sql: String
    }

    static let migrations: [Migration] = [
        Migration(name: "p1 diary", sql: diary),
        Migration(name: "p2 search", sql: search),
        Migration(name: "p3 shared state", sql: sharedState),
        Migration(name: "p4 videos", sql: videos),
        Migration(name: "p5 idempotency keys", sql: idempotencyKeys),
        Migration(name: "p6 comments and hearts", sql: reactions),
        Migration(name: "p7 authors and reads", sql: authorsAndReads),
        Migration(name: "p8 mail", sql: mail),
        Migration(name: "p9 place regions", sql: placeRegions),
        Migration(name: "p10 weather", sql: weather),
        Migration(name: "p11 page indexes", sql: pageIndexes),
        Migration(name: "p12 search counts", sql: searchCounts),
        Migration(name: "p13 entry lists", sql: entryLists),
        Migration(name: "p14 trash and versions", sql: trash),
        Migration(name: "p15 activity", sql: activity),
        Migration(name: "p16 snapshot runs", sql: snapshotRuns),
        Migration(name: "p17 book jobs", sql: bookJobs),
        Migration(name: "p18 sign-in methods", sql: signInMethods),
        Migration(name: "p19 search family numbers", sql: searchFamilyNumbers),
    ]

    private static let diary = """
        CREATE TABLE families (
            id text COLLATE "C" PRIMARY KEY,
            name text COLLATE "C" NOT NULL CHECK (length(trim(name)) > 0),
            createdAt text COLLATE "C" NOT NULL
        );
        CREATE UNIQUE INDEX families_name ON families (lower(name));
        CREATE TABLE users (
            id text COLLATE "C" PRIMARY KEY,
            username text COLLATE "C" NOT NULL CHECK (length(username) BETWEEN 1 AND 64),
            passwordHash text COLLATE "C" NOT NULL,
            createdAt text COLLATE "C" NOT NULL
        );
        CREATE UNIQUE INDEX users_username ON users (lower(username));
        CREATE TABLE memberships (
            familyId text COLLATE "C" NOT NULL REFERENCES families(id) ON DELETE CASCADE,
            userId text COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            role text COLLATE "C" NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
            createdAt text COLLATE "C" NOT NULL,
            PRIMARY KEY (familyId, userId)
        );
        CREATE INDEX memberships_user ON memberships(userId);
        CREATE TABLE apiTokens (
            id text COLLATE "C" PRIMARY KEY,
            familyId text COLLATE "C" NOT NULL,
            userId text COLLATE "C" NOT NULL,
            digest bytea NOT NULL UNIQUE CHECK (octet_length(digest) = 32),
            name text COLLATE "C" NOT NULL,
            createdAt text COLLATE "C" NOT NULL,
            role text COLLATE "C" CHECK (role IN ('owner', 'editor', 'viewer')),
            FOREIGN KEY (familyId, userId) REFERENCES memberships(familyId, userId) ON DELETE CASCADE
        );
        CREATE INDEX apiTokens_membership ON apiTokens(familyId, userId);

        CREATE TABLE children (
            id text COLLATE "C" PRIMARY KEY,
            familyId text COLLATE "C" NOT NULL REFERENCES families(id) ON DELETE CASCADE,
            name text COLLATE "C" NOT NULL CHECK (length(trim(name)) > 0),
            nickname text COLLATE "C",
            birthDate text COLLATE "C" NOT NULL CHECK (birthDate ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
            birthCalendar text COLLATE "C" NOT NULL CHECK (birthCalendar IN ('solar', 'lunar')),
            isLeapMonth boolean NOT NULL DEFAULT false CHECK (NOT isLeapMonth OR birthCalendar = 'lunar'),
            birthTime text COLLATE "C" CHECK (birthTime ~ '^[0-2][0-9]:[0-5][0-9]$'),
            sex text COLLATE "C" CHECK (sex IN ('female', 'male')),
            birthplace text COLLATE "C",
            hospital text COLLATE "C",
            residentNumberSealed bytea, -- AES-GCM (Secrets.FieldCipher); never plain text
            createdAt text COLLATE "C" NOT NULL,
            modifiedAt text COLLATE "C" NOT NULL,
            photoId text COLLATE "C",
            UNIQUE (id, familyId)
        );
        CREATE INDEX children_family ON children(familyId, createdAt, id);
        CREATE INDEX children_photo ON children(photoId);

        CREATE TABLE entries (
            id text COLLATE "C" PRIMARY KEY,
            familyId text COLLATE "C" NOT NULL REFERENCES families(id) ON DELETE CASCADE,
            title text COLLATE "C" NOT NULL,
            body text COLLATE "C" NOT NULL,
            localDateTime text COLLATE "C" NOT NULL
                CHECK (localDateTime ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-2][0-9]:[0-5][0-9]$'),
            timeZone text COLLATE "C" NOT NULL,
            weather text COLLATE "C",
            placeName text COLLATE "C",
            latitude double precision CHECK (latitude BETWEEN -90 AND 90),
            longitude double precision CHECK (longitude BETWEEN -180 AND 180),
            createdAt text COLLATE "C" NOT NULL,
            modifiedAt text COLLATE "C" NOT NULL,
            CHECK ((latitude IS NULL) = (longitude IS NULL)),
            UNIQUE (id, familyId)
        );
        -- The timeline: a family's entries newest first, paged by (localDateTime, id).
        CREATE INDEX entries_timeline ON entries(familyId, localDateTime DESC, id DESC);

        CREATE TABLE entryChildren (
            entryId text COLLATE "C" NOT NULL,
            childId text COLLATE "C" NOT NULL,
            familyId text COLLATE "C" NOT NULL,
            position integer NOT NULL,
            PRIMARY KEY (entryId, childId),
            FOREIGN KEY (entryId, familyId) REFERENCES entries(id, familyId) ON DELETE CASCADE,
            FOREIGN KEY (childId, familyId) REFERENCES children(id, familyId) ON DELETE CASCADE
        );
        CREATE INDEX entryChildren_child ON entryChildren(childId, entryId);

        CREATE TABLE tags (
            id text COLLATE "C" PRIMARY KEY,
            familyId text COLLATE "C" NOT NULL REFERENCES families(id) ON DELETE CASCADE,
            name text COLLATE "C" NOT NULL,
            UNIQUE (id, familyId)
        );
        CREATE UNIQUE INDEX tags_name ON tags (familyId, lower(name));
        CREATE TABLE entryTags (
            entryId text COLLATE "C" NOT NULL,
            tagId text COLLATE "C" NOT NULL,
            familyId text COLLATE "C" NOT NULL,
            position integer NOT NULL,
            PRIMARY KEY (entryId, tagId),
            FOREIGN KEY (entryId, familyId) REFERENCES entries(id, familyId) ON DELETE CASCADE,
            FOREIGN KEY (tagId, familyId) REFERENCES tags(id, familyId) ON DELETE CASCADE
        );
        CREATE INDEX entryTags_tag ON entryTags(tagId, entryId);

        CREATE TABLE photos (
            id text COLLATE "C" PRIMARY KEY,
            familyId text COLLATE "C" NOT NULL REFERENCES families(id) ON DELETE CASCADE,
            sha256 text COLLATE "C" NOT NULL CHECK (length(sha256) = 64),
            mimeType text COLLATE "C" NOT NULL,
            byteCount bigint NOT NULL CHECK (byteCount > 0),
            width integer NOT NULL CHECK (width > 0),
            height integer NOT NULL CHECK (height > 0),
            takenAt text COLLATE "C",
            latitude double precision CHECK (latitude BETWEEN -90 AND 90),
            longitude double precision CHECK (longitude BETWEEN -180 AND 180),
            createdAt text COLLATE "C" NOT NULL,
            takenLocal text COLLATE "C" CHECK (takenLocal ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$'),
            takenOffset text COLLATE "C" CHECK (takenOffset ~ '^[+-][0-9]{2}:[0-9]{2}$'),
            orientation integer NOT NULL DEFAULT 1 CHECK (orientation BETWEEN 1 AND 8),
            cameraMake text COLLATE "C",
            cameraModel text COLLATE "C",
            thumbnails text COLLATE "C" NOT NULL DEFAULT 'pending' CHECK (thumbnails IN ('pending', 'ready', 'failed')),
            UNIQUE (id, familyId)
        );
        CREATE INDEX photos_sha256 ON photos(sha256);
        CREATE UNIQUE INDEX photos_family_content ON photos(familyId, sha256);
        CREATE INDEX photos_pending ON photos(createdAt) WHERE thumbnails = 'pending';
        -- Deferrable: a restore writes children before the photos their profile photo is one of.
        ALTER TABLE children ADD FOREIGN KEY (photoId) REFERENCES photos(id) ON DELETE SET NULL DEFERRABLE INITIALLY IMMEDIATE;
        CREATE TABLE entryPhotos (
            entryId text COLLATE "C" NOT NULL,
            photoId text COLLATE "C" NOT NULL,
            familyId text COLLATE "C" NOT NULL,
            position integer NOT NULL,
            PRIMARY KEY (entryId, photoId),
            UNIQUE (entryId, position) DEFERRABLE INITIALLY IMMEDIATE,
            FOREIGN KEY (entryId, familyId) REFERENCES entries(id, familyId) ON DELETE CASCADE,
            FOREIGN KEY (photoId, familyId) REFERENCES photos(id, familyId) ON DELETE CASCADE
        );
        CREATE INDEX entryPhotos_photo ON entryPhotos(photoId);

        CREATE TABLE events (
            id text COLLATE "C" PRIMARY KEY,
            familyId text COLLATE "C" NOT NULL,
            childId text COLLATE "C" NOT NULL,
            kind text COLLATE "C" NOT NULL CHECK (kind IN ('hospital', 'milestone', 'other')),
            title text COLLATE "C" NOT NULL,
            date text COLLATE "C" NOT NULL CHECK (date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
            time text COLLATE "C" CHECK (time ~ '^[0-2][0-9]:[0-5][0-9]$'),
            notes text COLLATE "C",
            hospital text COLLATE "C",
            doctor text COLLATE "C",
            diagnosis text COLLATE "C",
            createdAt text COLLATE "C" NOT NULL,
            modifiedAt text COLLATE "C" NOT NULL,
            UNIQUE (id, familyId),
            FOREIGN KEY (childId, familyId) REFERENCES children(id, familyId) ON DELETE CASCADE
        );
        CREATE INDEX events_family ON events(familyId, date DESC, id DESC);
        CREATE INDEX events_child ON events(childId);
        CREATE TABLE eventPhotos (
            eventId text COLLATE "C" NOT NULL,
            photoId text COLLATE "C" NOT NULL,
            familyId text COLLATE "C" NOT NULL,
            position integer NOT NULL,
            PRIMARY KEY (eventId, photoId),
            UNIQUE (eventId, position),
            FOREIGN KEY (eventId, familyId) REFERENCES events(id, familyId) ON DELETE CASCADE,
            FOREIGN KEY (photoId, familyId) REFERENCES photos(id, familyId) ON DELETE CASCADE
        );
        CREATE INDEX eventPhotos_photo ON eventPhotos(photoId);

        CREATE TABLE anniversaries (
            id text COLLATE "C" PRIMARY KEY,
            familyId text COLLATE "C" NOT NULL REFERENCES families(id) ON DELETE CASCADE,
            childId text COLLATE "C",
            name text COLLATE "C" NOT NULL,
            calendar text COLLATE "C" NOT NULL CHECK (calendar IN ('solar', 'lunar')),
            month integer NOT NULL CHECK (month BETWEEN 1 AND 12),
            day integer NOT NULL CHECK (day BETWEEN 1 AND 31 AND (calendar = 'solar' OR day <= 30)),
            isLeapMonth boolean NOT NULL DEFAULT false CHECK (NOT isLeapMonth OR calendar = 'lunar'),
            isHoliday boolean NOT NULL DEFAULT false,
            createdAt text COLLATE "C" NOT NULL,
            modifiedAt text COLLATE "C" NOT NULL,
            FOREIGN KEY (childId, familyId) REFERENCES children(id, familyId) ON DELETE CASCADE
        );
        CREATE INDEX anniversaries_family ON anniversaries(familyId, month, day);
        CREATE INDEX anniversaries_child ON anniversaries(childId);

        CREATE TABLE memos (
            id text COLLATE "C" PRIMARY KEY,
            familyId text COLLATE "C" NOT NULL REFERENCES families(id) ON DELETE CASCADE,
            title text COLLATE "C" NOT NULL,
            body text COLLATE "C" NOT NULL,
            createdAt text COLLATE "C" NOT NULL,
            modifiedAt text COLLATE "C" NOT NULL
        );
        CREATE INDEX memos_recent ON memos(familyId, modifiedAt DESC, id DESC);

        CREATE TABLE growthMeasurements (
            id text COLLATE "C" PRIMARY KEY,
            childId text COLLATE "C" NOT NULL REFERENCES children(id) ON DELETE CASCADE,
            kind text COLLATE "C" NOT NULL CHECK (kind IN ('height', 'weight', 'head')),
            value double precision NOT NULL CHECK (value > 0),
            unit text COLLATE "C" NOT NULL CHECK (unit IN ('cm', 'kg') AND (unit = 'kg') = (kind = 'weight')),
            date text COLLATE "C" NOT NULL CHECK (date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
            createdAt text COLLATE "C" NOT NULL
        );
        CREATE INDEX growthMeasurements_child ON growthMeasurements(childId, date);

        CREATE TABLE sessions (
            id text COLLATE "C" PRIMARY KEY,
            digest bytea NOT NULL UNIQUE CHECK (octet_length(digest) = 32),
            userId text COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            familyId text COLLATE "C" REFERENCES families(id) ON DELETE SET NULL,
            csrfToken text COLLATE "C" NOT NULL CHECK (length(csrfToken) >= 32),
            createdAt text COLLATE "C" NOT NULL,
            lastSeenAt text COLLATE "C" NOT NULL,
            expiresAt text COLLATE "C" NOT NULL
        );
        CREATE INDEX sessions_user ON sessions(userId);

        CREATE TABLE invitations (
            id text COLLATE "C" PRIMARY KEY,
            familyId text COLLATE "C" NOT NULL REFERENCES families(id) ON DELETE CASCADE,
            role text COLLATE "C" NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
            digest bytea NOT NULL UNIQUE CHECK (octet_length(digest) = 32),
            createdBy text COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
            createdAt text COLLATE "C" NOT NULL,
            expiresAt text COLLATE "C" NOT NULL,
            acceptedAt text COLLATE "C",
            acceptedBy text COLLATE "C" REFERENCES users(id) ON DELETE SET NULL
        );
        CREATE INDEX invitations_family ON invitations(familyId, createdAt DESC);

        CREATE TABLE shareLinks (
            id text COLLATE "C" PRIMARY KEY,
            familyId text COLLATE "C" NOT NULL REFERENCES families(id) ON DELETE CASCADE,
            digest bytea NOT NULL UNIQUE CHECK (octet_length(digest) = 32),
            label text COLLATE "C",
            createdBy text COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
            createdAt text COLLATE "C" NOT NULL,
            expiresAt text COLLATE "C" NOT NULL,
            UNIQUE (id, familyId)
        );
        CREATE INDEX shareLinks_family ON shareLinks(familyId, createdAt DESC);
        CREATE TABLE shareLinkEntries (
            shareLinkId text COLLATE "C" NOT NULL,
            entryId text COLLATE "C" NOT NULL,
            familyId text COLLATE "C" NOT NULL,
            position integer NOT NULL,
            PRIMARY KEY (shareLinkId, entryId),
            FOREIGN KEY (shareLinkId, familyId) REFERENCES shareLinks(id, familyId) ON DELETE CASCADE,
            FOREIGN KEY (entryId, familyId) REFERENCES entries(id, familyId) ON DELETE CASCADE
        );
        CREATE INDEX shareLinkEntries_entry ON shareLinkEntries(entryId);

        CREATE TABLE vaccinations (
            id text COLLATE "C" PRIMARY KEY,
            familyId text COLLATE "C" NOT NULL,
            childId text COLLATE "C" NOT NULL,
            product text COLLATE "C" NOT NULL CHECK (product IN ('bcg', 'hepB', 'dtap', 'tdap', 'ipv', 'hib', 'pcv', 'rv1',
                'rv5', 'mmr', 'varicella', 'hepA', 'ijev', 'ljev', 'hpv', 'influenza', 'dtapIpv', 'dtapIpvHib')),
            date text COLLATE "C" NOT NULL CHECK (date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
            place text COLLATE "C",
            lot text COLLATE "C",
            productName text COLLATE "C",
            createdAt text COLLATE "C" NOT NULL,
            FOREIGN KEY (childId, familyId) REFERENCES children(id, familyId) ON DELETE CASCADE
        );
        CREATE INDEX vaccinations_child ON vaccinations(childId, date);
        CREATE TABLE vaccinationChoices (
            childId text COLLATE "C" NOT NULL,
            familyId text COLLATE "C" NOT NULL,
            choice text COLLATE "C" NOT NULL CHECK (choice IN ('rotavirus', 'japaneseEncephalitis')),
            vaccine text COLLATE "C" NOT NULL CHECK (vaccine IN ('rv1', 'rv5', 'ijev', 'ljev')),
            PRIMARY KEY (childId, choice),
            FOREIGN KEY (childId, familyId) REFERENCES children(id, familyId) ON DELETE CASCADE
        );
        CREATE TABLE vaccinationSkips (
            childId text COLLATE "C" NOT NULL,
            familyId text COLLATE "C" NOT NULL,
            vaccine text COLLATE "C" NOT NULL,
            number integer NOT NULL CHECK (number >= 1),
            PRIMARY KEY (childId, vaccine, number),
            FOREIGN KEY (childId, familyId) REFERENCES children(id, familyId) ON DELETE CASCADE
        );

        CREATE TABLE calendarFeeds (
            id text COLLATE "C" PRIMARY KEY,
            familyId text COLLATE "C" NOT NULL REFERENCES families(id) ON DELETE CASCADE,
            digest bytea NOT NULL UNIQUE CHECK (octet_length(digest) = 32),
            label text COLLATE "C",
            includesHolidays boolean NOT NULL DEFAULT false,
            createdBy text COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
            createdAt text COLLATE "C" NOT NULL
        );
        CREATE INDEX calendarFeeds_family ON calendarFeeds(familyId, createdAt DESC);

        CREATE TABLE importedItems (
            familyId text COLLATE "C" NOT NULL REFERENCES families(id) ON DELETE CASCADE,
            source text COLLATE "C" NOT NULL,
            sourceKey text COLLATE "C" NOT NULL,
            entryId text COLLATE "C" REFERENCES entries(id) ON DELETE SET NULL,
            importedAt text COLLATE "C" NOT NULL,
            childId text COLLATE "C" REFERENCES children(id) ON DELETE SET NULL,
            eventId text COLLATE "C" REFERENCES events(id) ON DELETE SET NULL,
            anniversaryId text COLLATE "C" REFERENCES anniversaries(id) ON DELETE SET NULL,
            PRIMARY KEY (familyId, source, sourceKey)
        );
        CREATE INDEX importedItems_entry ON importedItems(entryId);
        CREATE INDEX importedItems_child ON importedItems(childId);
        CREATE INDEX importedItems_event ON importedItems(eventId);
        CREATE INDEX importedItems_anniversary ON importedItems(anniversaryId);
        """

    /// The search index: one document per entry or memo, kept by the stores in the transaction of each write, and the
    /// tokens Saessak's own tokenizer (CModules/CSearchTokenizer, the one SQLite's FTS5 index uses) makes of each
    /// column, with their positions, in an indexed table. A query looks tokens up there: the same tokens as on SQLite,
    /// so the same matches — pg_trgm alone would miss one-syllable Korean words.
    private static let search = """
        CREATE TABLE searchDocuments (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            familyId text COLLATE "C" NOT NULL REFERENCES families(id) ON DELETE CASCADE,
            entryId text COLLATE "C" UNIQUE,
            memoId text COLLATE "C" UNIQUE REFERENCES memos(id) ON DELETE CASCADE,
            title text COLLATE "C" NOT NULL,
            body text COLLATE "C" NOT NULL,
            tags text COLLATE "C" NOT NULL,
            place text COLLATE "C" NOT NULL,
            FOREIGN KEY (entryId, familyId) REFERENCES entries(id, familyId) ON DELETE CASCADE,
            CHECK ((entryId IS NULL) <> (memoId IS NULL))
        );
        CREATE INDEX searchDocuments_family ON searchDocuments(familyId, id DESC);
        CREATE TABLE searchTokens (
            documentId bigint NOT NULL REFERENCES searchDocuments(id) ON DELETE CASCADE,
            familyId text COLLATE "C" NOT NULL,
            token text COLLATE "C" NOT NULL,
            field smallint NOT NULL CHECK (field BETWEEN 1 AND 4), -- title, body, tags, place
            positions integer[] NOT NULL,
            PRIMARY KEY (documentId, field, token)
        );
        -- Exact tokens and prefixes (`token LIKE '아기%'` in the C collation is a range scan of this index).
        CREATE INDEX searchTokens_lookup ON searchTokens(familyId, token, documentId);
        """
}
