import CSearchTokenizer
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

    static func refresh(_ db: Database, memo: MemoID) throws {
        try refreshMemos(db, condition: "memos.id = ?", arguments: [memo.sql])
    }

    /// Every document made again from the entries and memos, and the index rebuilt from the documents.
    static func refreshAll(_ db: Database) throws {
        try fillPlaceRegions(db)
        try db.execute(sql: "DELETE FROM searchDocuments")
        try refreshEntries(db, condition: "1", arguments: [])
        try refreshMemos(db, condition: "1", arguments: [])
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

    private static func refreshEntries(_ db: Database, condition: String, arguments: StatementArguments) throws {
        let place = try db.columns(in: "entries").contains(where: { $0.name == "placeRegion" })
            ? "trim(coalesce(placeName, '') || ' ' || coalesce(placeRegion, ''))" : "coalesce(placeName, '')"
        // Prepared once per connection (an import refreshes each of thousands of entries; parsing this each time
        // was 7 % of a Day One import's time).
        try db.cachedStatement(
            sql: """
                INSERT INTO searchDocuments (familyId, family, entryId, title, body, tags, place)
                SELECT familyId, replace(familyId, '-', ''), id, title, body,
                    coalesce((SELECT group_concat(name, ' ') FROM (
                        SELECT tags.name FROM entryTags JOIN tags ON tags.id = entryTags.tagId
                        WHERE entryTags.entryId = entries.id ORDER BY entryTags.position)), ''),
                    \(place)
                FROM entries WHERE \(condition)
                ON CONFLICT (entryId) DO UPDATE
                SET title = excluded.title, body = excluded.body, tags = excluded.tags, place = excluded.place
                """
        ).execute(arguments: arguments)
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
