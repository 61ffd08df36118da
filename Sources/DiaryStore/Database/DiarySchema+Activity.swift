import GRDB
import Persistence

/// "v21 activity" and "v22 snapshot runs", the newest migrations. Shipped migrations are never edited.
extension DiarySchema {
    /// The family's record of who did what (`activity`, kept a year; docs/trash.md), and the browsers each user has
    /// signed in from (`devices`: only a digest of the cookie that names one), so that a sign-in from a new one is in
    /// the record.
    static func activity(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE activity (
                id TEXT PRIMARY KEY NOT NULL,
                familyId TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
                actorId TEXT REFERENCES users(id) ON DELETE SET NULL,
                at DATETIME NOT NULL,
                action TEXT NOT NULL CHECK (action IN ('created', 'edited', 'deleted', 'restored', 'purged', 'invited', 'joined',
                    'roleChanged', 'removed', 'revoked', 'downloaded', 'signedIn')),
                kind TEXT NOT NULL CHECK (kind IN ('entry', 'photo', 'memo', 'comment', 'child', 'event', 'anniversary', 'measurement',
                    'vaccination', 'member', 'invitation', 'shareLink', 'token', 'backup', 'device', 'trash')),
                subjectId TEXT,
                label TEXT NOT NULL DEFAULT '',
                detail TEXT NOT NULL DEFAULT ''
            );
            CREATE INDEX activity_family ON activity(familyId, at DESC, id DESC);
            CREATE INDEX activity_actor ON activity(familyId, actorId, at DESC, id DESC);
            CREATE INDEX activity_due ON activity(at);
            CREATE TABLE devices (
                id TEXT PRIMARY KEY NOT NULL,
                userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                digest BLOB NOT NULL UNIQUE CHECK (length(digest) = 32),
                label TEXT NOT NULL,
                firstSeenAt DATETIME NOT NULL,
                lastSeenAt DATETIME NOT NULL
            );
            CREATE INDEX devices_user ON devices(userId);
            """)
    }

    /// The scheduled snapshots' runs (docs/backup.md, "Snapshots"): one row per attempt, a period's attempts unique so
    /// that servers sharing a database take one snapshot a period between them. Server state: not in backups.
    static func snapshotRuns(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE snapshotRuns (
                id TEXT PRIMARY KEY NOT NULL,
                period INTEGER,
                attempt INTEGER,
                worker TEXT NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('running', 'ok', 'failed')),
                startedAt DATETIME NOT NULL,
                leaseUntil DATETIME NOT NULL,
                finishedAt DATETIME,
                snapshotId TEXT,
                error TEXT,
                reason TEXT,
                bytesAdded INTEGER,
                filesNew INTEGER,
                verified TEXT,
                UNIQUE (period, attempt)
            );
            CREATE INDEX snapshotRuns_started ON snapshotRuns(startedAt DESC);
            """)
    }

    /// The books and archives made in the background (docs/book.md): the queue and what is kept for download. Server
    /// state, made again on asking: not in backups.
    static func bookJobs(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE bookJobs (
                id TEXT PRIMARY KEY NOT NULL,
                familyId TEXT NOT NULL REFERENCES families(id) ON DELETE CASCADE,
                requestedBy TEXT REFERENCES users(id) ON DELETE SET NULL,
                childId TEXT REFERENCES children(id) ON DELETE CASCADE,
                request TEXT NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'ready', 'failed')),
                progress INTEGER NOT NULL DEFAULT 0,
                attempts INTEGER NOT NULL DEFAULT 0,
                worker TEXT,
                leaseUntil DATETIME,
                createdAt DATETIME NOT NULL,
                finishedAt DATETIME,
                expiresAt DATETIME,
                error TEXT,
                byteCount INTEGER,
                pages INTEGER
            );
            CREATE INDEX bookJobs_family ON bookJobs(familyId, createdAt DESC);
            CREATE INDEX bookJobs_waiting ON bookJobs(status, createdAt);
            """)
    }

    /// Ways to sign in besides a password, server state like sessions (not in backups): members' passkeys (WebAuthn)
    /// and the single-use challenges of their ceremonies (only a digest kept; a credential id is unique across the
    /// server); the second step of a password (a TOTP secret sealed with the field cipher, the last time step used so
    /// that a code works once, and hashed one-time recovery codes); how each session was signed in, from what browser
    /// (the devices list); and a family's rule that its owners and editors sign in with more than a password (family
    /// data: in backups).
    static func signInMethods(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE passkeys (
                id TEXT PRIMARY KEY NOT NULL,
                userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
                credentialId BLOB NOT NULL UNIQUE CHECK (length(credentialId) BETWEEN 1 AND 1023),
                userHandle BLOB NOT NULL CHECK (length(userHandle) = 16),
                publicKey BLOB NOT NULL CHECK (length(publicKey) BETWEEN 1 AND 4096),
                signCount INTEGER NOT NULL DEFAULT 0 CHECK (signCount BETWEEN 0 AND 4294967295),
                createdAt DATETIME NOT NULL,
                lastUsedAt DATETIME
            );
            CREATE INDEX passkeys_user ON passkeys(userId, createdAt);
            CREATE TABLE passkeyChallenges (
                digest BLOB PRIMARY KEY NOT NULL CHECK (length(digest) = 32),
                ceremony TEXT NOT NULL CHECK (ceremony IN ('register', 'sign-in', 'sign-up')),
                userId TEXT REFERENCES users(id) ON DELETE CASCADE,
                userHandle BLOB CHECK (userHandle IS NULL OR length(userHandle) = 16),
                expiresAt DATETIME NOT NULL
            );
            CREATE INDEX passkeyChallenges_expiry ON passkeyChallenges(expiresAt);
            CREATE TABLE secondSteps (
                userId TEXT PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                secretSealed BLOB NOT NULL,
                confirmedAt DATETIME,
                lastStep INTEGER NOT NULL DEFAULT 0 CHECK (lastStep >= 0)
            );
            CREATE TABLE recoveryCodes (
                userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                digest BLOB NOT NULL CHECK (length(digest) = 32),
                usedAt DATETIME,
                PRIMARY KEY (userId, digest)
            );
            ALTER TABLE sessions ADD COLUMN signedInWith TEXT NOT NULL DEFAULT 'password'
                CHECK (signedInWith IN ('password', 'passkey', 'second-step'));
            ALTER TABLE sessions ADD COLUMN label TEXT NOT NULL DEFAULT '' CHECK (length(label) <= 200);
            ALTER TABLE families ADD COLUMN strongSignIn INTEGER NOT NULL DEFAULT 0 CHECK (strongSignIn IN (0, 1));
            """)
    }
}
