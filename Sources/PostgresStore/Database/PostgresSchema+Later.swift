/// The PostgreSQL migrations after the first two (p3 shared state onwards), newest first, as SQLite's
/// `DiarySchema+Later`; `PostgresSchema.migrations` lists them in order. Shipped migrations are never edited.
extension PostgresSchema {
    /// As SQLite's "v24 sign-in methods": passkeys and their challenges, second steps and recovery codes, and how each
    /// session was signed in (server state, not in backups), and a family's rule for its owners and editors (in backups).
    static let signInMethods = """
        CREATE TABLE passkeys (
            id text COLLATE "C" PRIMARY KEY,
            userId text COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            name text COLLATE "C" NOT NULL CHECK (char_length(name) BETWEEN 1 AND 60),
            credentialId bytea NOT NULL UNIQUE CHECK (octet_length(credentialId) BETWEEN 1 AND 1023),
            userHandle bytea NOT NULL CHECK (octet_length(userHandle) = 16),
            publicKey bytea NOT NULL CHECK (octet_length(publicKey) BETWEEN 1 AND 4096),
            signCount bigint NOT NULL DEFAULT 0 CHECK (signCount BETWEEN 0 AND 4294967295),
            createdAt text COLLATE "C" NOT NULL,
            lastUsedAt text COLLATE "C"
        );
        CREATE INDEX passkeys_user ON passkeys(userId, createdAt);
        CREATE TABLE passkeyChallenges (
            digest bytea PRIMARY KEY CHECK (octet_length(digest) = 32),
            ceremony text COLLATE "C" NOT NULL CHECK (ceremony IN ('register', 'sign-in', 'sign-up')),
            userId text COLLATE "C" REFERENCES users(id) ON DELETE CASCADE,
            userHandle bytea CHECK (userHandle IS NULL OR octet_length(userHandle) = 16),
            expiresAt text COLLATE "C" NOT NULL
        );
        CREATE INDEX passkeyChallenges_expiry ON passkeyChallenges(expiresAt);
        CREATE TABLE secondSteps (
            userId text COLLATE "C" PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
            secretSealed bytea NOT NULL,
            confirmedAt text COLLATE "C",
            lastStep bigint NOT NULL DEFAULT 0 CHECK (lastStep >= 0)
        );
        CREATE TABLE recoveryCodes (
            userId text COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            digest bytea NOT NULL CHECK (octet_length(digest) = 32),
            usedAt text COLLATE "C",
            PRIMARY KEY (userId, digest)
        );
        ALTER TABLE sessions ADD COLUMN signedInWith text COLLATE "C" NOT NULL DEFAULT 'password'
            CHECK (signedInWith IN ('password', 'passkey', 'second-step'));
        ALTER TABLE sessions ADD COLUMN label text COLLATE "C" NOT NULL DEFAULT '' CHECK (char_length(label) <= 200);
        ALTER TABLE families ADD COLUMN strongSignIn boolean NOT NULL DEFAULT false;
        """

    /// As SQLite's "v23 book jobs": the books and archives made in the background, and kept for download.
    static let bookJobs = """
        CREATE TABLE bookJobs (
            id text COLLATE "C" PRIMARY KEY,
            familyId text COLLATE "C" NOT NULL REFERENCES families(id) ON DELETE CASCADE,
            requestedBy text COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
            childId text COLLATE "C" REFERENCES children(id) ON DELETE CASCADE,
            request text COLLATE "C" NOT NULL,
            status text COLLATE "C" NOT NULL CHECK (status IN ('queued', 'running', 'ready', 'failed')),
            progress bigint NOT NULL DEFAULT 0,
            attempts bigint NOT NULL DEFAULT 0,
            worker text COLLATE "C",
            leaseUntil text COLLATE "C",
            createdAt text COLLATE "C" NOT NULL,
            finishedAt text COLLATE "C",
            expiresAt text COLLATE "C",
            error text COLLATE "C",
            byteCount bigint,
            pages bigint
        );
        CREATE INDEX bookJobs_family ON bookJobs(familyId, createdAt DESC);
        CREATE INDEX bookJobs_waiting ON bookJobs(status, createdAt);
        """

    /// As SQLite's "v22 snapshot runs": the scheduled snapshots' attempts, one per period between the servers.
    static let snapshotRuns = """
        CREATE TABLE snapshotRuns (
            id text COLLATE "C" PRIMARY KEY,
            period bigint,
            attempt bigint,
            worker text COLLATE "C" NOT NULL,
            status text COLLATE "C" NOT NULL CHECK (status IN ('running', 'ok', 'failed')),
            startedAt text COLLATE "C" NOT NULL,
            leaseUntil text COLLATE "C" NOT NULL,
            finishedAt text COLLATE "C",
            snapshotId text COLLATE "C",
            error text COLLATE "C",
            reason text COLLATE "C",
            bytesAdded bigint,
            filesNew bigint,
            verified text COLLATE "C",
            UNIQUE (period, attempt)
        );
        CREATE INDEX snapshotRuns_started ON snapshotRuns(startedAt DESC);
        """

    /// As SQLite's "v21 activity": the family's record of who did what, and the browsers each user signed in from.
    static let activity = """
        CREATE TABLE activity (
            id text COLLATE "C" PRIMARY KEY,
            familyId text COLLATE "C" NOT NULL REFERENCES families(id) ON DELETE CASCADE,
            actorId text COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
            at text COLLATE "C" NOT NULL,
            action text COLLATE "C" NOT NULL CHECK (action IN ('created', 'edited', 'deleted', 'restored', 'purged', 'invited', 'joined',
                'roleChanged', 'removed', 'revoked', 'downloaded', 'signedIn')),
            kind text COLLATE "C" NOT NULL CHECK (kind IN ('entry', 'photo', 'memo', 'comment', 'child', 'event', 'anniversary', 'measurement',
                'vaccination', 'member', 'invitation', 'shareLink', 'token', 'backup', 'device', 'trash')),
            subjectId text COLLATE "C",
            label text COLLATE "C" NOT NULL DEFAULT '',
            detail text COLLATE "C" NOT NULL DEFAULT ''
        );
        CREATE INDEX activity_family ON activity(familyId, at DESC, id DESC);
        CREATE INDEX activity_actor ON activity(familyId, actorId, at DESC, id DESC);
        CREATE INDEX activity_due ON activity(at);
        CREATE TABLE devices (
            id text COLLATE "C" PRIMARY KEY,
            userId text COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            digest bytea NOT NULL UNIQUE CHECK (octet_length(digest) = 32),
            label text COLLATE "C" NOT NULL,
            firstSeenAt text COLLATE "C" NOT NULL,
            lastSeenAt text COLLATE "C" NOT NULL
        );
        CREATE INDEX devices_user ON devices(userId);
        """

    /// As SQLite's "v20 trash and versions": a family's trash, the photos and things it holds, how long the family
    /// keeps it, and entries' earlier versions.
    static let trash = """
        ALTER TABLE families ADD COLUMN trashDays integer NOT NULL DEFAULT 30 CHECK (trashDays BETWEEN 7 AND 365);
        CREATE TABLE trashItems (
            id text COLLATE "C" PRIMARY KEY,
            familyId text COLLATE "C" NOT NULL REFERENCES families(id) ON DELETE CASCADE,
            kind text COLLATE "C" NOT NULL CHECK (kind IN ('entry', 'photo', 'memo', 'comment', 'child', 'event', 'anniversary', 'measurement', 'vaccination')),
            itemId text COLLATE "C" NOT NULL,
            parentKind text COLLATE "C" CHECK (parentKind IN ('entry', 'photo', 'memo', 'comment', 'child', 'event', 'anniversary', 'measurement', 'vaccination')),
            parentId text COLLATE "C",
            label text COLLATE "C" NOT NULL,
            deletedBy text COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
            deletedAt text COLLATE "C" NOT NULL,
            shareLinks integer NOT NULL DEFAULT 0 CHECK (shareLinks >= 0),
            snapshot text COLLATE "C" NOT NULL,
            residentNumberSealed bytea,
            CHECK ((parentKind IS NULL) = (parentId IS NULL)),
            UNIQUE (id, familyId)
        );
        CREATE INDEX trashItems_family ON trashItems(familyId, deletedAt DESC, id DESC);
        CREATE INDEX trashItems_item ON trashItems(familyId, kind, itemId);
        CREATE INDEX trashItems_due ON trashItems(deletedAt);
        CREATE TABLE trashPhotos (
            trashId text COLLATE "C" NOT NULL,
            photoId text COLLATE "C" NOT NULL,
            familyId text COLLATE "C" NOT NULL,
            position integer NOT NULL,
            PRIMARY KEY (trashId, photoId),
            FOREIGN KEY (trashId, familyId) REFERENCES trashItems(id, familyId) ON DELETE CASCADE,
            FOREIGN KEY (photoId, familyId) REFERENCES photos(id, familyId)
        );
        CREATE INDEX trashPhotos_photo ON trashPhotos(photoId);
        CREATE TABLE trashContents (
            trashId text COLLATE "C" NOT NULL,
            familyId text COLLATE "C" NOT NULL,
            kind text COLLATE "C" NOT NULL,
            itemId text COLLATE "C" NOT NULL,
            PRIMARY KEY (trashId, kind, itemId),
            FOREIGN KEY (trashId, familyId) REFERENCES trashItems(id, familyId) ON DELETE CASCADE
        );
        CREATE INDEX trashContents_item ON trashContents(familyId, kind, itemId);
        CREATE TABLE entryVersions (
            id text COLLATE "C" PRIMARY KEY,
            entryId text COLLATE "C" NOT NULL,
            familyId text COLLATE "C" NOT NULL,
            number integer NOT NULL CHECK (number >= 1),
            content text COLLATE "C" NOT NULL,
            savedAt text COLLATE "C" NOT NULL,
            savedBy text COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
            replacedAt text COLLATE "C" NOT NULL,
            replacedBy text COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
            UNIQUE (entryId, number),
            UNIQUE (id, familyId),
            FOREIGN KEY (entryId, familyId) REFERENCES entries(id, familyId) ON DELETE CASCADE
        );
        CREATE TABLE entryVersionPhotos (
            versionId text COLLATE "C" NOT NULL,
            photoId text COLLATE "C" NOT NULL,
            familyId text COLLATE "C" NOT NULL,
            position integer NOT NULL,
            PRIMARY KEY (versionId, photoId),
            FOREIGN KEY (versionId, familyId) REFERENCES entryVersions(id, familyId) ON DELETE CASCADE,
            FOREIGN KEY (photoId, familyId) REFERENCES photos(id, familyId)
        );
        CREATE INDEX entryVersionPhotos_photo ON entryVersionPhotos(photoId);
        """

    /// As SQLite's "v19 entry lists": an entry's children, tags and photos in order from the index alone.
    static let entryLists = """
        CREATE INDEX entryChildren_entry ON entryChildren(entryId, position, childId);
        CREATE INDEX entryTags_entry ON entryTags(entryId, position, tagId);
        CREATE INDEX entryPhotos_entry ON entryPhotos(entryId, position, photoId);
        """

    /// As SQLite's "v18 page indexes": a member's news and "on this day" from an index.
    static let pageIndexes = """
        CREATE INDEX entries_news ON entries(familyId, authorId, createdAt);
        CREATE INDEX entries_month_day ON entries(familyId, substr(localDateTime, 6, 5));
        CREATE INDEX entries_day ON entries(familyId, substr(localDateTime, 1, 10));
        """

    /// As SQLite's "v17 weather".
    static let weather = """
        ALTER TABLE families ADD COLUMN weatherLookup boolean NOT NULL DEFAULT false;
        CREATE TABLE weatherCache (
            cell text COLLATE "C" NOT NULL,
            date text COLLATE "C" NOT NULL,
            code bigint,
            high double precision,
            low double precision,
            fetchedAt text COLLATE "C" NOT NULL,
            PRIMARY KEY (cell, date)
        );
        """

    /// As SQLite's "v16 place regions".
    static let placeRegions = """
        ALTER TABLE entries ADD COLUMN placeRegion text COLLATE "C";
        """

    /// As SQLite's "v15 mail".
    static let mail = """
        ALTER TABLE memberships ADD COLUMN mailAddress text COLLATE "C" CHECK (mailAddress IS NULL OR length(mailAddress) BETWEEN 3 AND 254);
        ALTER TABLE memberships ADD COLUMN mailDigest text COLLATE "C" NOT NULL DEFAULT 'off' CHECK (mailDigest IN ('off', 'daily', 'weekly'));
        ALTER TABLE memberships ADD COLUMN mailReminders boolean NOT NULL DEFAULT false;
        ALTER TABLE memberships ADD COLUMN mailLanguage text COLLATE "C" NOT NULL DEFAULT 'ko' CHECK (mailLanguage IN ('ko', 'en'));
        ALTER TABLE memberships ADD COLUMN mailSince text COLLATE "C";
        CREATE TABLE mailOutbox (
            id text COLLATE "C" PRIMARY KEY,
            familyId text COLLATE "C" NOT NULL REFERENCES families(id) ON DELETE CASCADE,
            userId text COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            key text COLLATE "C" NOT NULL,
            recipient text COLLATE "C" NOT NULL,
            messageId text COLLATE "C" NOT NULL,
            message bytea NOT NULL,
            state text COLLATE "C" NOT NULL CHECK (state IN ('queued', 'sending', 'sent', 'failed', 'unknown', 'skipped')),
            attempts bigint NOT NULL DEFAULT 0,
            nextAttemptAt text COLLATE "C" NOT NULL,
            claimedAt text COLLATE "C",
            lastError text COLLATE "C",
            createdAt text COLLATE "C" NOT NULL,
            sentAt text COLLATE "C",
            UNIQUE (familyId, userId, key)
        );
        CREATE INDEX mailOutbox_due ON mailOutbox(nextAttemptAt) WHERE state = 'queued';
        """

    static let authorsAndReads = """
        ALTER TABLE entries ADD COLUMN authorId text COLLATE "C" REFERENCES users(id) ON DELETE SET NULL;
        CREATE INDEX entries_author ON entries(familyId, createdAt) WHERE authorId IS NOT NULL;
        CREATE TABLE entryReads (
            familyId text COLLATE "C" NOT NULL REFERENCES families(id) ON DELETE CASCADE,
            entryId text COLLATE "C" NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
            userId text COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            readAt text COLLATE "C" NOT NULL,
            PRIMARY KEY (entryId, userId)
        );
        CREATE INDEX entryReads_user ON entryReads(userId, familyId);
        """

    /// As SQLite's "v13 comments and hearts".
    static let reactions = """
        CREATE TABLE comments (
            id text COLLATE "C" PRIMARY KEY,
            familyId text COLLATE "C" NOT NULL REFERENCES families(id) ON DELETE CASCADE,
            entryId text COLLATE "C" REFERENCES entries(id) ON DELETE CASCADE,
            photoId text COLLATE "C" REFERENCES photos(id) ON DELETE CASCADE,
            authorId text COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
            body text COLLATE "C" NOT NULL CHECK (length(body) > 0),
            createdAt text COLLATE "C" NOT NULL,
            modifiedAt text COLLATE "C" NOT NULL,
            CHECK ((entryId IS NULL) <> (photoId IS NULL))
        );
        CREATE INDEX comments_entry ON comments(entryId, createdAt) WHERE entryId IS NOT NULL;
        CREATE INDEX comments_photo ON comments(photoId, createdAt) WHERE photoId IS NOT NULL;
        CREATE TABLE hearts (
            id text COLLATE "C" PRIMARY KEY,
            familyId text COLLATE "C" NOT NULL REFERENCES families(id) ON DELETE CASCADE,
            entryId text COLLATE "C" REFERENCES entries(id) ON DELETE CASCADE,
            photoId text COLLATE "C" REFERENCES photos(id) ON DELETE CASCADE,
            userId text COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            createdAt text COLLATE "C" NOT NULL,
            CHECK ((entryId IS NULL) <> (photoId IS NULL))
        );
        CREATE UNIQUE INDEX hearts_entry ON hearts(entryId, userId) WHERE entryId IS NOT NULL;
        CREATE UNIQUE INDEX hearts_photo ON hearts(photoId, userId) WHERE photoId IS NOT NULL;
        """

    /// As SQLite's "v12 idempotency keys".
    static let idempotencyKeys = """
        CREATE TABLE idempotencyKeys (
            familyId text COLLATE "C" NOT NULL REFERENCES families(id) ON DELETE CASCADE,
            key text COLLATE "C" NOT NULL,
            entryId text COLLATE "C" REFERENCES entries(id) ON DELETE SET NULL,
            createdAt text COLLATE "C" NOT NULL,
            PRIMARY KEY (familyId, key)
        );
        """

    /// As SQLite's "v11 videos": a clip's length, codecs and web rendition on its `photos` row, and rendition claims.
    static let videos = """
        ALTER TABLE photos ADD COLUMN durationMs bigint CHECK (durationMs > 0);
        ALTER TABLE photos ADD COLUMN videoCodec text COLLATE "C";
        ALTER TABLE photos ADD COLUMN audioCodec text COLLATE "C";
        ALTER TABLE photos ADD COLUMN rendition text COLLATE "C" NOT NULL DEFAULT 'none'
            CHECK (rendition IN ('none', 'pending', 'ready', 'failed'));
        ALTER TABLE photos ADD COLUMN renditionProgress integer CHECK (renditionProgress BETWEEN 0 AND 100);
        CREATE INDEX photos_rendition_pending ON photos(createdAt) WHERE rendition = 'pending';
        CREATE TABLE renditionClaims (
            photoId text COLLATE "C" PRIMARY KEY REFERENCES photos(id) ON DELETE CASCADE,
            worker text COLLATE "C" NOT NULL,
            claimedUntil text COLLATE "C" NOT NULL
        );
        """

    /// As SQLite's "v10 shared state": thumbnail claims (taken with `FOR UPDATE SKIP LOCKED`, so two servers never
    /// work on one photo) and recent wrong passwords, for every server to see.
    static let sharedState = """
        CREATE TABLE thumbnailClaims (
            photoId text COLLATE "C" PRIMARY KEY REFERENCES photos(id) ON DELETE CASCADE,
            worker text COLLATE "C" NOT NULL,
            claimedUntil text COLLATE "C" NOT NULL
        );
        CREATE TABLE loginFailures (
            key text COLLATE "C" NOT NULL,
            failedAt text COLLATE "C" NOT NULL
        );
        CREATE INDEX loginFailures_key ON loginFailures(key, failedAt);
        """
}
