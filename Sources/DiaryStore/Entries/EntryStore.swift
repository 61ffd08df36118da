import Diary
import Foundation
import GRDB
import KoreanCalendar
import Persistence

/// `EntryStore` over the SQLite database (`DiaryDatabase`).
public struct SQLiteEntryStore: EntryStore {
    let database: DiaryDatabase

    public init(_ database: DiaryDatabase) { self.database = database }

    public func list(family: FamilyID, filter: TimelineFilter = TimelineFilter(), after cursor: PageCursor?, limit: Int)
        async throws -> Page<Entry>
    {
        let paging = KeysetPage(sortKey: "localDateTime", descending: true, cursor: cursor, limit: limit)
        return try await database.writer.read { db in
            var condition = ""
            var arguments: StatementArguments = []
            if let child = filter.childID {
                condition += " AND EXISTS (SELECT 1 FROM entryChildren WHERE entryId = entries.id AND childId = ?)"
                arguments += [child.sql]
            }
            if let tag = filter.tag {
                condition += """
                     AND EXISTS (SELECT 1 FROM entryTags JOIN tags ON tags.id = entryTags.tagId
                        WHERE entryTags.entryId = entries.id AND tags.familyId = ? AND tags.name = ?)
                    """
                arguments += [family.sql, tag]
            }
            if let period = filter.period {
                condition += " AND localDateTime >= ? AND localDateTime < ?"
                arguments += [period.bounds.from, period.bounds.before]
            }
            let (rows, next) = try FamilyTable.entries.page(db, family: family, paging: paging, condition: condition, arguments: arguments)
            return Page(items: try decodeEntries(db, Array(rows)), next: next)
        }
    }

    public func timeline(family: FamilyID, filter: TimelineFilter = TimelineFilter(), after cursor: PageCursor?, limit: Int)
        async throws -> (sections: [MonthSection<Entry>], next: PageCursor?)
    {
        let page = try await list(family: family, filter: filter, after: cursor, limit: limit)
        return (MonthSection.group(page.items) { YearMonth($0.content.date.date) }, page.next)
    }

    public func days(family: FamilyID, from first: SolarDate, through last: SolarDate) async throws -> [SolarDate: DaySummary] {
        let before = (try? last.adding(days: 1))?.iso ?? last.iso + "U"
        let rows = try await database.writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT substr(localDateTime, 1, 10) AS day, COUNT(*) AS entries,
                        (SELECT entryPhotos.photoId FROM entries AS dayEntries
                            JOIN entryPhotos ON entryPhotos.entryId = dayEntries.id
                            WHERE dayEntries.familyId = ?1 AND dayEntries.localDateTime >= substr(entries.localDateTime, 1, 10)
                                AND dayEntries.localDateTime < substr(entries.localDateTime, 1, 10) || 'U'
                            ORDER BY dayEntries.localDateTime, entryPhotos.position LIMIT 1) AS photo
                    FROM entries WHERE familyId = ?1 AND localDateTime >= ?2 AND localDateTime < ?3
                    GROUP BY day
                    """,
                arguments: [family.sql, first.iso, before]
            ).map { row -> (String, Int, String?) in (row["day"], row["entries"], row["photo"]) }
        }
        var days: [SolarDate: DaySummary] = [:]
        for (day, count, photo) in rows {
            guard let date = try? SolarDate(iso: day) else { continue }
            days[date] = DaySummary(entries: count, firstPhoto: photo.flatMap(PhotoID.init))
        }
        return days
    }

    public func onThisDay(family: FamilyID, _ day: OnThisDay, limit: Int = 100) async throws -> [Entry] {
        try await database.writer.read { db in
            var conditions = ["substr(localDateTime, 6, 5) IN (\(databaseQuestionMarks(count: day.solarMonthDays.count)))"]
            var arguments = StatementArguments(day.solarMonthDays)
            if !day.lunarDates.isEmpty {
                conditions.append("substr(localDateTime, 1, 10) IN (\(databaseQuestionMarks(count: day.lunarDates.count)))")
                arguments += StatementArguments(day.lunarDates.map(\.iso))
            }
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM entries WHERE familyId = ? AND localDateTime < ? AND (\(conditions.joined(separator: " OR ")))
                    ORDER BY localDateTime DESC, id DESC LIMIT \(limit)
                    """,
                arguments: [family.sql, String(day.date.iso.prefix(4)) + "-01-01"] + arguments)
            return try decodeEntries(db, rows)
        }
    }

    public func get(family: FamilyID, id: EntryID) async throws -> Entry {
        try await database.writer.read { db in try fetch(db, family: family, id: id) }
    }

    public func create(family: FamilyID, content: EntryContent, photos: [PhotoID], author: UserID?) async throws -> Entry {
        let now = database.clock.now()
        return try await database.writer.write { db in
            try insert(db, family: family, content: content, photos: photos, author: author, now: now)
        }
    }

    public func create(family: FamilyID, content: EntryContent, photos: [PhotoID], author: UserID?, idempotencyKey key: String) async throws
        -> (entry: Entry, replayed: Bool)
    {
        let now = database.clock.now()
        return try await database.writer.write { db in
            try db.execute(
                sql: "DELETE FROM idempotencyKeys WHERE familyId = ? AND createdAt < ?",
                arguments: [family.sql, now.addingTimeInterval(-idempotencyLifetime).stored])
            try db.execute(
                sql: "INSERT INTO idempotencyKeys (familyId, key, entryId, createdAt) VALUES (?, ?, NULL, ?) ON CONFLICT DO NOTHING",
                arguments: [family.sql, key, now.stored])
            guard db.changesCount == 1 else {
                let made = try String.fetchOne(
                    db, sql: "SELECT entryId FROM idempotencyKeys WHERE familyId = ? AND key = ?", arguments: [family.sql, key])
                guard let made, let id = EntryID(made) else {
                    throw StoreError.conflict(field: "Idempotency-Key", message: "the entry made with this key was deleted since")
                }
                return (try fetch(db, family: family, id: id), true)
            }
            let entry = try insert(db, family: family, content: content, photos: photos, author: author, now: now)
            try db.execute(
                sql: "UPDATE idempotencyKeys SET entryId = ? WHERE familyId = ? AND key = ?", arguments: [entry.id.sql, family.sql, key])
            return (entry, false)
        }
    }

    /// `create` inside a transaction the caller holds (an import writes many entries in one).
    func insert(_ db: Database, family: FamilyID, content: EntryContent, photos: [PhotoID], author: UserID? = nil, now: Date) throws -> Entry {
        let entry = Entry(familyID: family, content: content, createdAt: now, modifiedAt: now)
        try checkChildren(db, family: family, content.childIDs)
        var record = EntryRecord(id: entry.id, family: family, content: content, createdAt: now, modifiedAt: now)
        record.authorId = author?.sql
        try record.insert(db)
        try link(db, entry: entry.id, family: family, content: content)
        try SQLPhotoStore.link(SQLiteSession(db: db), photos, to: .entry(entry.id), family: family)
        try SearchIndex.refresh(db, entry: entry.id)
        return try fetch(db, family: family, id: entry.id)
    }

    public func update(family: FamilyID, id: EntryID, content: EntryContent, photos: [PhotoID]?, expecting version: Int64?) async throws
        -> (entry: Entry, released: [ReleasedPhotoFile])
    {
        let now = database.clock.now()
        return try await database.writer.write { db in
            let stored = try fetch(db, family: family, id: id)
            guard version == nil || version == stored.version else { throw StoreError.changed(kind: "entry", id: id.description) }
            try checkChildren(db, family: family, content.childIDs)
            var record = EntryRecord(
                id: id, family: family, content: content, createdAt: stored.createdAt, modifiedAt: stored.nextModifiedAt(now: now))
            record.authorId = stored.authorID?.sql
            try record.update(db)
            try db.execute(sql: "DELETE FROM entryChildren WHERE entryId = ?", arguments: [id.sql])
            try db.execute(sql: "DELETE FROM entryTags WHERE entryId = ?", arguments: [id.sql])
            try link(db, entry: id, family: family, content: content)
            try Self.deleteUnusedTags(db, family: family)
            try SearchIndex.refresh(db, entry: id)
            var released: [ReleasedPhotoFile] = []
            if let photos { released = try SQLPhotoStore.replace(SQLiteSession(db: db), photos: photos, of: .entry(id), family: family) }
            return (try fetch(db, family: family, id: id), released)
        }
    }

    public func delete(family: FamilyID, id: EntryID) async throws -> [ReleasedPhotoFile] {
        try await database.writer.write { db in
            let photos = try SQLPhotoStore.photoIDs(SQLiteSession(db: db), of: .entry(id))
            try FamilyTable.entries.delete(db, family: family, id: id)
            try Self.deleteUnusedTags(db, family: family)
            return try SQLPhotoStore.deleteUnreferenced(SQLiteSession(db: db), candidates: photos)
        }
    }

    public func tags(family: FamilyID) async throws -> [String] {
        // The tags table holds only tags in use (unused ones go with their last entry): no need to count uses,
        // which would read every entry's tags.
        try await database.writer.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM tags WHERE familyId = ? ORDER BY name", arguments: [family.sql])
        }
    }

    /// Tags no entry uses any more go with their last entry.
    static func deleteUnusedTags(_ db: Database, family: FamilyID) throws {
        try db.execute(
            sql: "DELETE FROM tags WHERE familyId = ? AND NOT EXISTS (SELECT 1 FROM entryTags WHERE tagId = tags.id)",
            arguments: [family.sql])
    }

    private func checkChildren(_ db: Database, family: FamilyID, _ ids: [ChildID]) throws {
        if let missing = try SQLiteChildStore.missing(ids, family: family, in: db).first {
            throw StoreError.unknownReference(field: "childIds", id: missing.description)
        }
    }

    private func link(_ db: Database, entry: EntryID, family: FamilyID, content: EntryContent) throws {
        for (position, child) in content.childIDs.enumerated() {
            try db.execute(
                sql: "INSERT INTO entryChildren (entryId, childId, familyId, position) VALUES (?, ?, ?, ?)",
                arguments: [entry.sql, child.sql, family.sql, position])
        }
        for (position, name) in content.tags.enumerated() {
            try db.execute(
                sql: "INSERT INTO tags (id, familyId, name) VALUES (?, ?, ?) ON CONFLICT (familyId, name) DO NOTHING",
                arguments: [TagID().sql, family.sql, name])
            try db.execute(
                sql: """
                    INSERT INTO entryTags (entryId, tagId, familyId, position)
                    SELECT ?, id, familyId, ? FROM tags WHERE familyId = ? AND name = ?
                    """,
                arguments: [entry.sql, position, family.sql, name])
        }
    }

    private func fetch(_ db: Database, family: FamilyID, id: EntryID) throws -> Entry {
        try decodeEntries(db, [try FamilyTable.entries.row(db, family: family, id: id)])[0]
    }

    /// Decodes entry rows, loading the children, tags and photos of all of them in three queries.
    private func decodeEntries(_ db: Database, _ rows: [Row]) throws -> [Entry] {
        guard !rows.isEmpty else { return [] }
        let ids: [String] = try rows.map { try $0.decode(forColumn: "id") }
        let marks = databaseQuestionMarks(count: ids.count)
        var children: [String: [ChildID]] = [:]
        for row in try Row.fetchAll(
            db, sql: "SELECT entryId, childId FROM entryChildren WHERE entryId IN (\(marks)) ORDER BY entryId, position",
            arguments: StatementArguments(ids))
        {
            children[try row.decode(forColumn: "entryId"), default: []].append(try row.id("childId"))
        }
        var tags: [String: [String]] = [:]
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT entryTags.entryId, tags.name FROM entryTags JOIN tags ON tags.id = entryTags.tagId
                WHERE entryTags.entryId IN (\(marks)) ORDER BY entryTags.entryId, entryTags.position
                """,
            arguments: StatementArguments(ids))
        {
            tags[try row.decode(forColumn: "entryId"), default: []].append(try row.decode(forColumn: "name"))
        }
        var photos: [String: [PhotoID]] = [:]
        for row in try Row.fetchAll(
            db, sql: "SELECT entryId, photoId FROM entryPhotos WHERE entryId IN (\(marks)) ORDER BY entryId, position",
            arguments: StatementArguments(ids))
        {
            photos[try row.decode(forColumn: "entryId"), default: []].append(try row.id("photoId"))
        }
        return try rows.map { row in
            try readBack("entry") {
                let record = try EntryRecord(row: row)
                return try record.entry(children: children[record.id] ?? [], tags: tags[record.id] ?? [], photos: photos[record.id] ?? [])
            }
        }
    }
}

/// A row of `entries`, its columns named once (children, tags and photos are rows of their own tables).
struct EntryRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "entries"

    var id: String
    var familyId: String
    var title: String
    var body: String
    var localDateTime: String
    var timeZone: String
    var weather: String?
    var placeName: String?
    /// Derived from the coordinates when written (search finds the entry by it); never read back.
    var placeRegion: String?
    var latitude: Double?
    var longitude: Double?
    var createdAt: String
    var modifiedAt: String
    var authorId: String?

    init(id: EntryID, family: FamilyID, content: EntryContent, createdAt: Date, modifiedAt: Date) {
        self.init(id: id, family: family, content: content, createdAt: createdAt.stored, modifiedAt: modifiedAt.stored)
    }

    init(id: EntryID, family: FamilyID, content: EntryContent, createdAt: String, modifiedAt: String) {
        self.id = id.sql
        familyId = family.sql
        title = content.title
        body = content.body
        localDateTime = content.date.iso
        timeZone = content.timeZone
        weather = content.weather
        placeName = content.place?.name
        placeRegion = PlaceRegion.text(content.place)
        latitude = content.place?.latitude
        longitude = content.place?.longitude
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
    }

    /// The entry, checked again on the way out (a restored backup's rows were never through the domain's checks).
    func entry(children: [ChildID], tags: [String], photos: [PhotoID]) throws -> Entry {
        let place = placeName == nil && latitude == nil ? nil : try Place(name: placeName, latitude: latitude, longitude: longitude)
        let content = try EntryContent(
            title: title, body: body, date: try LocalDateTime(iso: localDateTime), timeZone: timeZone, childIDs: children,
            tags: tags, place: place, weather: weather)
        guard let entryID = EntryID(id), let family = FamilyID(familyId) else {
            throw StoreError.unreadable("entry '\(id)' of family '\(familyId)': not UUIDs")
        }
        guard let created = StoredTime.date(createdAt), let modified = StoredTime.date(modifiedAt) else {
            throw StoreError.unreadable("entry \(id): '\(createdAt)' or '\(modifiedAt)' is not a timestamp")
        }
        return Entry(
            id: entryID, familyID: family, content: content, photoIDs: photos, createdAt: created, modifiedAt: modified,
            authorID: authorId.flatMap(UserID.init))
    }
}
