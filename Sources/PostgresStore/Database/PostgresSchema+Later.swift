/// The PostgreSQL migrations after the first two (p3 shared state onwards), newest first, as SQLite's
/// `DiarySchema+Later`; `PostgresSchema.migrations` lists them in order. Shipped migrations are never edited.
extension PostgresSchema {
    /// As SQLite's "v14 authors and reads".
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
