import CSearchTokenizer
import Diary
import GRDB

/// Keeps `searchDocuments` (and through its triggers the FTS5 index) in step with entries and memos. The stores call
/// these inside the transaction of each write, so a search never sees a half-made change.
enum SearchIndex {
    static func registerTokenizer(_ db: Database) throws {
        let code = saessak_search_register(UnsafeMutableRawPointer(db.sqliteConnection))
        guard ResultCode(rawValue: code) == .SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot register the search tokenizer")
        }
    }

    /// The entry's document: title, body, tags in order, place name.
    static func refresh(_ db: Database, entry: EntryID) throws {
        try refreshEntries(db, condition: "entries.id = ?", arguments: [entry.sql])
    }

    static func refresh(_ db: Database, memo: MemoID) throws {
        try refreshMemos(db, condition: "memos.id = ?", arguments: [memo.sql])
    }

    /// Every document made again from the entries and memos, and the index rebuilt from the documents.
    static func refreshAll(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM searchDocuments")
        try refreshEntries(db, condition: "1", arguments: [])
        try refreshMemos(db, condition: "1", arguments: [])
        try db.execute(sql: "INSERT INTO searchIndex (searchIndex) VALUES ('rebuild')")
        try db.execute(sql: "INSERT INTO searchIndex (searchIndex) VALUES ('optimize')")
    }

    private static func refreshEntries(_ db: Database, condition: String, arguments: StatementArguments) throws {
        try db.execute(
            sql: """
                INSERT INTO searchDocuments (familyId, family, entryId, title, body, tags, place)
                SELECT familyId, replace(familyId, '-', ''), id, title, body,
                    coalesce((SELECT group_concat(name, ' ') FROM (
                        SELECT tags.name FROM entryTags JOIN tags ON tags.id = entryTags.tagId
                        WHERE entryTags.entryId = entries.id ORDER BY entryTags.position)), ''),
                    coalesce(placeName, '')
                FROM entries WHERE \(condition)
                ON CONFLICT (entryId) DO UPDATE
                SET title = excluded.title, body = excluded.body, tags = excluded.tags, place = excluded.place
                """,
            arguments: arguments)
    }

    private static func refreshMemos(_ db: Database, condition: String, arguments: StatementArguments) throws {
        try db.execute(
            sql: """
                INSERT INTO searchDocuments (familyId, family, memoId, title, body, tags, place)
                SELECT familyId, replace(familyId, '-', ''), id, title, body, '', '' FROM memos WHERE \(condition)
                ON CONFLICT (memoId) DO UPDATE SET title = excluded.title, body = excluded.body
                """,
            arguments: arguments)
    }
}
