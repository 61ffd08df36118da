import CSearchTokenizer
import Foundation
import Diary
import GRDB
import Persistence

/// Keeps `searchDocuments` (and through its triggers the FTS5 index) in step with entries and memos. The stores call
/// these inside the transaction of each write, so a search never sees a half-made change.
enum SearchIndex {
    static func registerTokenizer(_ db: Database) throws {
        let code = saessak_search_register(UnsafeMutableRawPointer(db.sqliteConnection))
        guard ResultCode(rawValue: code) == .SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot register the search tokenizer")
        }
    }

    /// The entry's document: title, body, tags in order, place name and the Korean place of its coordinates.
    static func refresh(_ db: Database, entry: EntryID) throws {
        try refreshEntries(db, condition: "entries.id = ?", arguments: [entry.sql])
    }

    /// Entries indexed together, a statement for each thousand. FTS5 (SQLite 3.40) writes what it holds in memory
    /// to disk as a new segment whenever a statement that may have to be undone on its own starts within the
    /// transaction — every statement that fires a trigger, as a document's does — so an import that indexed its
    /// entries one at a time wrote a segment for each and kept merging them: half its writing time and 660 MB of
    /// statement journal for 10,000 entries (issue 35). In the order the entries were written, so that the
    /// documents' IDs, the search's newest-first order, are those indexing them one at a time gave.
    static func refresh(_ db: Database, entries: [EntryID]) throws {
        for start in stride(from: 0, to: entries.count, by: entriesAStatement) {
            let chunk = entries[start..<min(start + entriesAStatement, entries.count)]
            try refreshEntries(
                db, condition: "entries.id IN (\(databaseQuestionMarks(count: chunk.count)))",
                arguments: StatementArguments(chunk.map(\.sql)), order: "ORDER BY entries.rowid")
        }
    }

    static let entriesAStatement = 1000

    static func refresh(_ db: Database, memo: MemoID) throws {
        try refreshMemos(db, condition: "memos.id = ?", arguments: [memo.sql])
    }

    /// Every document made again from the entries and memos, and the index rebuilt from the documents.
    static func refreshAll(_ db: Database) throws {
        if let structure = try structure(db), structure.levels > levelsOpenable { try rebuild(db) }  // so its triggers can run
        try fillPlaceRegions(db)
        try db.execute(sql: "DELETE FROM searchDocuments")
        try refreshEntries(db, condition: "1", arguments: [])
        try refreshMemos(db, condition: "1", arguments: [])
        try db.execute(sql: "INSERT INTO searchIndex (searchIndex) VALUES ('rebuild')")
        try db.execute(sql: "INSERT INTO searchIndex (searchIndex) VALUES ('optimize')")
    }

    /// From this many segments `tidySearchIndex` merges them into one (a few small ones cost little; the bench's
    /// diary had 10).
    static let segmentsWorthMerging = 6

    /// Leaf pages (about 4 KB each) a merge step writes.
    static let pagesAStep = 500

    /// FTS5's structure record (row 10 of `%_data`), the parts that matter here: how many levels and segments the
    /// index is in, and its write counter (one more for every segment a write flushes; a merge leaves it as it is).
    struct Structure: Equatable {
        let levels: Int
        let segments: Int
        let writes: Int
    }

    /// The structure record read: after its 4-byte cookie and, in the newer format, 4 more bytes (`FF 00 00 01`),
    /// three varints. Nil when there is no such record yet or it cannot be read.
    static func structure(_ db: Database) throws -> Structure? {
        guard let record = try Data.fetchOne(db, sql: "SELECT block FROM searchIndex_data WHERE id = 10") else { return nil }
        let bytes = [UInt8](record)
        var index = bytes.count >= 8 && bytes[4..<8] == [0xFF, 0x00, 0x00, 0x01] ? 8 : 4
        /// An SQLite varint: big-endian groups of seven bits, each byte but the ninth flagged by its top bit.
        func varint() -> Int? {
            var value: UInt64 = 0
            for byte in 0..<9 {
                guard index < bytes.count else { return nil }
                let next = bytes[index]
                index += 1
                if byte == 8 { return Int(exactly: value << 8 | UInt64(next)) }
                value = value << 7 | UInt64(next & 0x7F)
                if next < 0x80 { return Int(exactly: value) }
            }
            return nil
        }
        guard let levels = varint(), let segments = varint(), let writes = varint() else { return nil }
        return Structure(levels: levels, segments: segments, writes: writes)
    }

    /// How many segments the index is in (0 when the structure record is missing or cannot be read).
    static func segments(_ db: Database) throws -> Int {
        try structure(db)?.segments ?? 0
    }

    /// One step of merging every segment into one; false once there was nothing left to merge (FTS5 changes fewer
    /// than two rows then).
    static func mergeStep(_ db: Database, pages: Int = pagesAStep) throws -> Bool {
        let before = db.totalChangesCount
        try db.execute(sql: "INSERT INTO searchIndex (searchIndex, rank) VALUES ('merge', ?)", arguments: [-pages])
        return db.totalChangesCount - before >= 2
    }

    /// Levels past which the index is made again rather than merged. Each merge into one segment puts it a level
    /// above the rest, and nothing takes levels away: SQLite before 3.41 (Debian 12 has 3.40) adds one for every
    /// step of the incremental merge that follows another write, and past 2,000 levels FTS5 cannot open the index
    /// at all ("vtable constructor failed", `SQLITE_CORRUPT`): every write of an entry then fails. `make bench`'s
    /// four clients writing through the API while the server merged got there in a minute.
    static let levelsAllowed = 64

    /// The most levels FTS5 opens (`FTS5_MAX_LEVEL`'s 64 is its merges' limit, the structure's is 2,000).
    static let levelsOpenable = 2_000

    /// The index made again from its documents, its levels back to a few: FTS5's `rebuild` clears its tables and
    /// indexes every document again (100,000 entries: some seconds), then one segment. An index FTS5 cannot open
    /// is first given an empty structure record, the one a new index starts with, so that `rebuild` can run.
    static func rebuild(_ db: Database) throws {
        if let structure = try structure(db), structure.levels > levelsOpenable {
            try db.execute(sql: "UPDATE searchIndex_data SET block = zeroblob(7) WHERE id = 10")
        }
        try db.execute(sql: "INSERT INTO searchIndex (searchIndex) VALUES ('rebuild')")
        try db.execute(sql: "INSERT INTO searchIndex (searchIndex) VALUES ('optimize')")
    }

    /// Entries with coordinates but no place region yet (written before schema v16, or restored from a backup made
    /// before it) get theirs from the bundled place data.
    static func fillPlaceRegions(_ db: Database) throws {
        guard try db.columns(in: "entries").contains(where: { $0.name == "placeRegion" }) else { return }
        let rows = try Row.fetchAll(
            db, sql: "SELECT id, latitude, longitude FROM entries WHERE placeRegion IS NULL AND latitude IS NOT NULL AND longitude IS NOT NULL")
        for row in rows {
            guard let region = PlaceRegion.text(latitude: row["latitude"], longitude: row["longitude"]) else { continue }
            try db.execute(sql: "UPDATE entries SET placeRegion = ? WHERE id = ?", arguments: [region, row["id"] as String])
        }
    }

    /// `order` given, the statement varies with the count of arguments and is not kept prepared.
    private static func refreshEntries(_ db: Database, condition: String, arguments: StatementArguments, order: String? = nil) throws {
        let place = try db.columns(in: "entries").contains(where: { $0.name == "placeRegion" })
            ? "trim(coalesce(placeName, '') || ' ' || coalesce(placeRegion, ''))" : "coalesce(placeName, '')"
        let sql = """
            INSERT INTO searchDocuments (familyId, family, entryId, title, body, tags, place)
            SELECT familyId, replace(familyId, '-', ''), id, title, body,
                coalesce((SELECT group_concat(name, ' ') FROM (
                    SELECT tags.name FROM entryTags JOIN tags ON tags.id = entryTags.tagId
                    WHERE entryTags.entryId = entries.id ORDER BY entryTags.position)), ''),
                \(place)
            FROM entries WHERE \(condition) \(order ?? "")
            ON CONFLICT (entryId) DO UPDATE
            SET title = excluded.title, body = excluded.body, tags = excluded.tags, place = excluded.place
            """
        guard order == nil else { return try db.execute(sql: sql, arguments: arguments) }
        // Prepared once per connection: every write of an entry refreshes it.
        try db.cachedStatement(sql: sql).execute(arguments: arguments)
    }

    private static func refreshMemos(_ db: Database, condition: String, arguments: StatementArguments) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO searchDocuments (familyId, family, memoId, title, body, tags, place)
                SELECT familyId, replace(familyId, '-', ''), id, title, body, '', '' FROM memos WHERE \(condition)
                ON CONFLICT (memoId) DO UPDATE SET title = excluded.title, body = excluded.body
                """
        ).execute(arguments: arguments)
    }
}
