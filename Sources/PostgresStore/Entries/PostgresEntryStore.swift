import Diary
import DiaryStore
import Foundation
import KoreanCalendar
import Persistence

/// `EntryStore` over PostgreSQL: the same queries as `SQLiteEntryStore`, over the same `entries_timeline` index.
public struct PostgresEntryStore: EntryStore {
    let database: PostgresDatabase

    public init(_ database: PostgresDatabase) { self.database = database }

    public func list(family: FamilyID, filter: TimelineFilter, after cursor: PageCursor?, limit: Int) async throws -> Page<Entry> {
        let paging = PostgresKeysetPage(sortKey: "localDateTime", descending: true, cursor: cursor, limit: limit)
        var condition = ""
        var arguments: [SQLArgument] = []
        if let child = filter.childID {
            condition += " AND EXISTS (SELECT 1 FROM entryChildren WHERE entryId = entries.id AND childId = ?)"
            arguments.append(child.sql)
        }
        if let tag = filter.tag {
            condition += """
                 AND EXISTS (SELECT 1 FROM entryTags JOIN tags ON tags.id = entryTags.tagId
                    WHERE entryTags.entryId = entries.id AND tags.familyId = ? AND lower(tags.name) = lower(?::text COLLATE "C"))
                """
            arguments += [family.sql, tag]
        }
        if let period = filter.period {
            condition += " AND localDateTime >= ? AND localDateTime < ?"
            arguments += [period.bounds.from, period.bounds.before]
        }
        let (condition2, arguments2) = (condition, arguments)
        return try await database.readAsync { db in
            let (rows, next) = try await PostgresFamilyTable.entries.page(
                db, family: family, paging: paging, condition: condition2, arguments: arguments2)
            return Page(items: try await Self.decodeEntries(db, Array(rows)), next: next)
        }
    }

    public func timeline(family: FamilyID, filter: TimelineFilter, after cursor: PageCursor?, limit: Int) async throws
        -> (sections: [MonthSection<Entry>], next: PageCursor?)
    {
        let page = try await list(family: family, filter: filter, after: cursor, limit: limit)
        return (MonthSection.group(page.items) { YearMonth($0.content.date.date) }, page.next)
    }

    public func days(family: FamilyID, from first: SolarDate, through last: SolarDate) async throws -> [SolarDate: DaySummary] {
        let before = (try? last.adding(days: 1))?.iso ?? last.iso + "U"
        let rows = try await database.readAsync { db in
            try await db.rows(
                """
                SELECT substr(localDateTime, 1, 10) AS day, count(*) AS entries,
                    (SELECT entryPhotos.photoId FROM entries AS dayEntries
                        JOIN entryPhotos ON entryPhotos.entryId = dayEntries.id
                        WHERE dayEntries.familyId = ? AND dayEntries.localDateTime >= substr(min(entries.localDateTime), 1, 10)
                            AND dayEntries.localDateTime < substr(min(entries.localDateTime), 1, 10) || 'U'
                        ORDER BY dayEntries.localDateTime, entryPhotos.position LIMIT 1) AS photo
                FROM entries WHERE familyId = ? AND localDateTime >= ? AND localDateTime < ?
                GROUP BY day
                """,
                [family.sql, family.sql, first.iso, before])
        }
        var days: [SolarDate: DaySummary] = [:]
        for row in rows {
            guard let date = try? SolarDate(iso: try row.string("day")) else { continue }
            days[date] = DaySummary(entries: try row.int("entries"), firstPhoto: try row.optionalString("photo").flatMap(PhotoID.init))
        }
        return days
    }

    public func onThisDay(family: FamilyID, _ day: OnThisDay, limit: Int) async throws -> [Entry] {
        var condition = "substr(localDateTime, 6, 5) = ANY(?)"
        var arguments: [SQLArgument] = [family.sql, String(day.date.iso.prefix(4)) + "-01-01", day.solarMonthDays]
        if !day.lunarDates.isEmpty {
            condition += " OR substr(localDateTime, 1, 10) = ANY(?)"
            arguments.append(day.lunarDates.map(\.iso))
        }
        let (condition2, arguments2) = (condition, arguments)
        return try await database.readAsync { db in
            let rows = try await db.rows(
                """
                SELECT * FROM entries WHERE familyId = ? AND localDateTime < ? AND (\(condition2))
                ORDER BY localDateTime DESC, id DESC LIMIT \(limit)
                """,
                arguments2)
            return try await Self.decodeEntries(db, rows)
        }
    }

    public func get(family: FamilyID, id: EntryID) async throws -> Entry {
        try await database.readAsync { db in try await Self.fetch(db, family: family, id: id) }
    }

    public func create(family: FamilyID, content: EntryContent, photos: [PhotoID], author: UserID?) async throws -> Entry {
        let now = database.clock.now()
        return try await database.writeAsync { db in
            try await Self.insert(db, family: family, content: content, photos: photos, author: author, now: now)
        }
    }

    /// A second request with the same key waits on the first's row (`ON CONFLICT` on an uncommitted insert), then
    /// finds its entry.
    public func create(family: FamilyID, content: EntryContent, photos: [PhotoID], author: UserID?, idempotencyKey key: String) async throws
        -> (entry: Entry, replayed: Bool)
    {
        let now = database.clock.now()
        return try await database.writeAsync { db in
            try await db.execute(
                "DELETE FROM idempotencyKeys WHERE familyId = ? AND createdAt < ?",
                [family.sql, now.addingTimeInterval(-idempotencyLifetime).stored])
            guard try await db.row(
                "INSERT INTO idempotencyKeys (familyId, key, entryId, createdAt) VALUES (?, ?, NULL, ?) ON CONFLICT DO NOTHING RETURNING key",
                [family.sql, key, now.stored]) != nil
            else {
                let made = try await db.row("SELECT entryId FROM idempotencyKeys WHERE familyId = ? AND key = ?", [family.sql, key])
                guard let made = try made?.optionalString("entryId"), let id = EntryID(made) else {
                    throw StoreError.conflict(field: "Idempotency-Key", message: "the entry made with this key was deleted since")
                }
                return (try await Self.fetch(db, family: family, id: id), true)
            }
            let entry = try await Self.insert(db, family: family, content: content, photos: photos, author: author, now: now)
            try await db.execute("UPDATE idempotencyKeys SET entryId = ? WHERE familyId = ? AND key = ?", [entry.id.sql, family.sql, key])
            return (entry, false)
        }
    }

    /// `create` inside a transaction the caller holds (an import writes many entries in one).
    static func insert(
        _ db: PostgresTransaction, family: FamilyID, content: EntryContent, photos: [PhotoID], author: UserID? = nil, now: Date
    ) async throws -> Entry {
        let entry = Entry(familyID: family, content: content, createdAt: now, modifiedAt: now)
        try await checkChildren(db, family: family, content.childIDs)
        try await db.execute(
            """
            INSERT INTO entries (id, familyId, title, body, localDateTime, timeZone, weather, placeName, latitude, longitude,
                placeRegion, createdAt, modifiedAt, authorId)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [entry.id.sql, family.sql] + contentArguments(content) + [now.stored, now.stored, author?.sql])
        try await link(db, entry: entry.id, family: family, content: content)
        try await db.session { [entry] in try SQLPhotoStore.link($0, photos, to: .entry(entry.id), family: family) }
        try await PostgresSearchIndex.refresh(db, entry: entry.id)
        return try await fetch(db, family: family, id: entry.id)
    }

    public func update(family: FamilyID, id: EntryID, content: EntryContent, photos: [PhotoID]?, expecting version: Int64?) async throws
        -> (entry: Entry, released: [ReleasedPhotoFile])
    {
        let now = database.clock.now()
        return try await database.writeAsync { db in
            // FOR UPDATE: a second editor's transaction waits here, then sees the first one's version.
            let locked = try await db.execute("SELECT 1 FROM entries WHERE id = ? AND familyId = ? FOR UPDATE", [id.sql, family.sql])
            guard locked == 1 else { throw PostgresFamilyTable.entries.notFound(id) }
            let stored = try await Self.fetch(db, family: family, id: id)
            guard version == nil || version == stored.version else { throw StoreError.changed(kind: "entry", id: id.description) }
            try await Self.checkChildren(db, family: family, content.childIDs)
            let changed = try await db.execute(
                """
                UPDATE entries SET title = ?, body = ?, localDateTime = ?, timeZone = ?, weather = ?, placeName = ?,
                    latitude = ?, longitude = ?, placeRegion = ?, modifiedAt = ?
                WHERE id = ? AND familyId = ? RETURNING 1
                """,
                Self.contentArguments(content) + [stored.nextModifiedAt(now: now).stored, id.sql, family.sql])
            guard changed == 1 else { throw PostgresFamilyTable.entries.notFound(id) }
            try await db.execute("DELETE FROM entryChildren WHERE entryId = ?", [id.sql])
            try await db.execute("DELETE FROM entryTags WHERE entryId = ?", [id.sql])
            try await Self.link(db, entry: id, family: family, content: content)
            try await Self.deleteUnusedTags(db, family: family)
            try await PostgresSearchIndex.refresh(db, entry: id)
            var released: [ReleasedPhotoFile] = []
            if let photos { released = try await db.session { try SQLPhotoStore.replace($0, photos: photos, of: .entry(id), family: family) } }
            return (try await Self.fetch(db, family: family, id: id), released)
        }
    }

    public func delete(family: FamilyID, id: EntryID) async throws -> [ReleasedPhotoFile] {
        try await database.writeAsync { db in
            let photos = try await db.session { try SQLPhotoStore.photoIDs($0, of: .entry(id)) }
            try await PostgresFamilyTable.entries.delete(db, family: family, id: id)
            try await Self.deleteUnusedTags(db, family: family)
            return try await db.session { [photos] in try SQLPhotoStore.deleteUnreferenced($0, candidates: photos) }
        }
    }

    public func tags(family: FamilyID) async throws -> [String] {
        try await database.readAsync { db in
            try await db.strings("SELECT name FROM tags WHERE familyId = ? ORDER BY lower(name), name", [family.sql])
        }
    }

    /// Tags no entry uses any more go with their last entry.
    static func deleteUnusedTags(_ db: PostgresTransaction, family: FamilyID) async throws {
        try await db.execute(
            "DELETE FROM tags WHERE familyId = ? AND NOT EXISTS (SELECT 1 FROM entryTags WHERE tagId = tags.id)", [family.sql])
    }

    private static func contentArguments(_ content: EntryContent) -> [SQLArgument] {
        [
            content.title, content.body, content.date.iso, content.timeZone, content.weather, content.place?.name,
            content.place?.latitude, content.place?.longitude, PlaceRegion.text(content.place),
        ]
    }

    private static func checkChildren(_ db: PostgresTransaction, family: FamilyID, _ ids: [ChildID]) async throws {
        if let missing = try await PostgresChildStore.missing(ids, family: family, in: db).first {
            throw StoreError.unknownReference(field: "childIds", id: missing.description)
        }
    }

    private static func link(_ db: PostgresTransaction, entry: EntryID, family: FamilyID, content: EntryContent) async throws {
        for (position, child) in content.childIDs.enumerated() {
            try await db.execute(
                "INSERT INTO entryChildren (entryId, childId, familyId, position) VALUES (?, ?, ?, ?)",
                [entry.sql, child.sql, family.sql, position])
        }
        for (position, name) in content.tags.enumerated() {
            try await db.execute(
                "INSERT INTO tags (id, familyId, name) VALUES (?, ?, ?) ON CONFLICT (familyId, lower(name)) DO NOTHING",
                [TagID().sql, family.sql, name])
            try await db.execute(
                """
                INSERT INTO entryTags (entryId, tagId, familyId, position)
                SELECT ?, id, familyId, ? FROM tags WHERE familyId = ? AND lower(name) = lower(?::text COLLATE "C")
                """,
                [entry.sql, position, family.sql, name])
        }
    }

    private static func fetch(_ db: PostgresTransaction, family: FamilyID, id: EntryID) async throws -> Entry {
        let row = try await PostgresFamilyTable.entries.row(db, family: family, id: id)
        guard let entry = try await decodeEntries(db, [row]).first else { throw PostgresFamilyTable.entries.notFound(id) }
        return entry
    }

    /// Decodes entry rows, loading the children, tags and photos of all of them in three queries.
    static func decodeEntries(_ db: PostgresTransaction, _ rows: [PostgresRecord]) async throws -> [Entry] {
        guard !rows.isEmpty else { return [] }
        let ids = try rows.map { try $0.string("id") }
        var children: [String: [ChildID]] = [:]
        for row in try await db.rows(
            "SELECT entryId, childId FROM entryChildren WHERE entryId = ANY(?) ORDER BY entryId, position", [ids])
        {
            children[try row.string("entryId"), default: []].append(try row.id("childId"))
        }
        var tags: [String: [String]] = [:]
        for row in try await db.rows(
            """
            SELECT entryTags.entryId, tags.name FROM entryTags JOIN tags ON tags.id = entryTags.tagId
            WHERE entryTags.entryId = ANY(?) ORDER BY entryTags.entryId, entryTags.position
            """,
            [ids])
        {
            tags[try row.string("entryId"), default: []].append(try row.string("name"))
        }
        var photos: [String: [PhotoID]] = [:]
        for row in try await db.rows("SELECT entryId, photoId FROM entryPhotos WHERE entryId = ANY(?) ORDER BY entryId, position", [ids]) {
            photos[try row.string("entryId"), default: []].append(try row.id("photoId"))
        }
        return try rows.map { row in
            try readBack("entry") {
                let id = try row.string("id")
                let placeName = try row.optionalString("placeName")
                let latitude = try row.optionalDouble("latitude")
                let longitude = try row.optionalDouble("longitude")
                let place = placeName == nil && latitude == nil ? nil : try Place(name: placeName, latitude: latitude, longitude: longitude)
                let content = try EntryContent(
                    title: try row.string("title"), body: try row.string("body"), date: try LocalDateTime(iso: try row.string("localDateTime")),
                    timeZone: try row.string("timeZone"), childIDs: children[id] ?? [], tags: tags[id] ?? [], place: place,
                    weather: try row.optionalString("weather"))
                return Entry(
                    id: try row.id("id"), familyID: try row.id("familyId"), content: content, photoIDs: photos[id] ?? [],
                    createdAt: try row.timestamp("createdAt"), modifiedAt: try row.timestamp("modifiedAt"),
                    authorID: try row.optionalID("authorId"))
            }
        }
    }
}
