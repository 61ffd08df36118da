import Diary
import Foundation
import KoreanCalendar

/// `EntryStore` over either engine.
public struct SQLEntryStore: EntryStore {
    let database: any StoreDatabase

    public init(_ database: any StoreDatabase) { self.database = database }

    public func list(family: FamilyID, filter: TimelineFilter = TimelineFilter(), after cursor: PageCursor?, limit: Int)
        async throws -> Page<Entry>
    {
        let paging = KeysetPage(sortKey: "localDateTime", descending: true, cursor: cursor, limit: limit)
        return try await database.read { db in
            var condition: SQL = ""
            if let child = filter.childID {
                condition += " AND EXISTS (SELECT 1 FROM entryChildren WHERE entryId = entries.id AND childId = \(child))"
            }
            if let tag = filter.tag {
                condition += """
                     AND EXISTS (SELECT 1 FROM entryTags JOIN tags ON tags.id = entryTags.tagId
                        WHERE entryTags.entryId = entries.id AND tags.familyId = \(family) AND \(db.dialect.equalsIgnoringCase("tags.name", tag)))
                    """
            }
            if let period = filter.period {
                condition += " AND localDateTime >= \(period.bounds.from) AND localDateTime < \(period.bounds.before)"
            }
            let (rows, next) = try FamilyTable.entries.page(db, family: family, paging: paging, condition: condition)
            return Page(items: try Self.decode(db, Array(rows)), next: next)
        }
    }

    public func timeline(family: FamilyID, filter: TimelineFilter = TimelineFilter(), after cursor: PageCursor?, limit: Int)
        async throws -> (sections: [MonthSection<Entry>], next: PageCursor?)
    {
        let page = try await list(family: family, filter: filter, after: cursor, limit: limit)
        return (MonthSection.group(page.items) { YearMonth($0.content.date.date) }, page.next)
    }

    /// The days' counts come from the index of days (`entries_day`), which holds each entry's day as its key: counted
    /// from the timeline's index, every entry's time was cut to its day and the days sorted again (0.23 against 0.14 ms
    /// for the six weeks of a month page of the bench's diary, issue 35). A day's first photo is found through the
    /// timeline's index, in the day's time order.
    public func days(family: FamilyID, from first: SolarDate, through last: SolarDate) async throws -> [SolarDate: DaySummary] {
        let rows = try await database.read { db in
            try db.rows(
                """
                SELECT day, entries,
                    (SELECT entryPhotos.photoId FROM entries AS dayEntries
                        JOIN entryPhotos ON entryPhotos.entryId = dayEntries.id
                        WHERE dayEntries.familyId = \(family) AND dayEntries.localDateTime >= day AND dayEntries.localDateTime < day || 'U'
                        ORDER BY dayEntries.localDateTime, entryPhotos.position LIMIT 1) AS photo
                FROM (SELECT substr(localDateTime, 1, 10) AS day, count(*) AS entries FROM entries
                    WHERE familyId = \(family) AND substr(localDateTime, 1, 10) >= \(first.iso) AND substr(localDateTime, 1, 10) <= \(last.iso)
                    GROUP BY substr(localDateTime, 1, 10)) AS days
                """)
        }
        var days: [SolarDate: DaySummary] = [:]
        for row in rows {
            guard let date = try? SolarDate(iso: try row.string("day")) else { continue }
            days[date] = DaySummary(entries: try row.int("entries"), firstPhoto: try row.optionalString("photo").flatMap(PhotoID.init))
        }
        return days
    }

    public func onThisDay(family: FamilyID, _ day: OnThisDay, limit: Int = 100) async throws -> [Entry] {
        let yearStart = String(day.date.iso.prefix(4)) + "-01-01"
        return try await database.read { db in
            // Each calendar's days from its own index (`entries_month_day`, `entries_day`), the newest `limit` chosen
            // among their ids, and only those read whole: the work is the entries of those days, never the whole
            // diary (PostgreSQL, told of a few hundred candidates, would otherwise hash-join the whole table).
            let before: SQL = "\(db.dialect.unindexed("localDateTime")) < \(yearStart)"
            var days: SQL = """
                SELECT id, localDateTime FROM entries
                WHERE familyId = \(family) AND substr(localDateTime, 6, 5) IN \(list: day.solarMonthDays) AND \(before)
                """
            if !day.lunarDates.isEmpty {
                days += """
                     UNION SELECT id, localDateTime FROM entries
                    WHERE familyId = \(family) AND substr(localDateTime, 1, 10) IN \(list: day.lunarDates.map(\.iso)) AND \(before)
                    """
            }
            return try Self.decode(
                db,
                try db.rows(
                    """
                    SELECT * FROM entries WHERE id IN (
                        SELECT id FROM (\(days)) AS days ORDER BY localDateTime DESC, id DESC LIMIT \(max(0, limit))
                    ) ORDER BY localDateTime DESC, id DESC
                    """))
        }
    }

    public func get(family: FamilyID, id: EntryID) async throws -> Entry {
        try await database.read { db in try Self.fetch(db, family: family, id: id) }
    }

    public func entries(family: FamilyID, ids: [EntryID]) async throws -> [Entry] {
        guard !ids.isEmpty else { return [] }
        let found = try await database.read { db in
            // By id; the family only checked (`unindexed`): a plan that starts from the family walks all of it.
            try Self.decode(db, try db.rows("SELECT * FROM entries WHERE id IN \(list: ids) AND \(db.dialect.unindexed("familyId")) = \(family)"))
        }
        let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[$0] }
    }

    public func create(family: FamilyID, content: EntryContent, photos: [PhotoID], author: UserID?) async throws -> Entry {
        let now = database.clock.now()
        return try await database.write { db in
            try Self.fetch(db, family: family, id: try Self.insert(db, family: family, content: content, photos: photos, author: author, now: now))
        }
    }

    /// A second request with the same key waits on the first's row (`ON CONFLICT` on an uncommitted insert, or
    /// SQLite's one writer), then finds its entry.
    public func create(family: FamilyID, content: EntryContent, photos: [PhotoID], author: UserID?, idempotencyKey key: String) async throws
        -> (entry: Entry, replayed: Bool)
    {
        let now = database.clock.now()
        return try await database.write { db in
            try db.execute("DELETE FROM idempotencyKeys WHERE familyId = \(family) AND createdAt < \(now.addingTimeInterval(-idempotencyLifetime))")
            let claimed = try db.execute(
                "INSERT INTO idempotencyKeys (familyId, key, entryId, createdAt) VALUES (\(family), \(key), NULL, \(now)) ON CONFLICT DO NOTHING")
            guard claimed == 1 else {
                let made = try db.string("SELECT entryId FROM idempotencyKeys WHERE familyId = \(family) AND key = \(key)")
                guard let made, let id = EntryID(made) else {
                    throw StoreError.conflict(field: "Idempotency-Key", message: "the entry made with this key was deleted since")
                }
                return (try Self.fetch(db, family: family, id: id), true)
            }
            let id = try Self.insert(db, family: family, content: content, photos: photos, author: author, now: now)
            try db.execute("UPDATE idempotencyKeys SET entryId = \(id) WHERE familyId = \(family) AND key = \(key)")
            return (try Self.fetch(db, family: family, id: id), false)
        }
    }

    /// `create` inside a transaction the caller holds (an import writes many entries in one); the new entry's id (an
    /// import has no use for the entry read back, a seventh of its writing).
    /// `indexed` false leaves the entry out of the search index: the caller indexes it before the transaction ends
    /// (an import indexes all of its entries together, `SearchIndexing.refresh(_:entries:)`).
    public static func insert(
        _ db: any SQLSession, family: FamilyID, content: EntryContent, photos: [PhotoID], author: UserID? = nil, now: Date,
        indexed: Bool = true
    ) throws -> EntryID {
        let entry = Entry(familyID: family, content: content, createdAt: now, modifiedAt: now)
        try checkChildren(db, family: family, content.childIDs)
        try db.execute(
            """
            INSERT INTO entries (id, familyId, title, body, localDateTime, timeZone, weather, placeName, latitude, longitude,
                placeRegion, createdAt, modifiedAt, authorId)
            VALUES (\(entry.id), \(family), \(content.title), \(content.body), \(content.date.iso), \(content.timeZone), \(content.weather),
                \(content.place?.name), \(content.place?.latitude), \(content.place?.longitude), \(PlaceRegion.text(content.place)),
                \(now), \(now), \(author))
            """)
        try link(db, entry: entry.id, family: family, content: content)
        try SQLPhotoStore.link(db, photos, to: .entry(entry.id), family: family)
        if indexed { try db.searchIndex.refresh(db, entry: entry.id) }
        return entry.id
    }

    public func update(
        family: FamilyID, id: EntryID, content: EntryContent, photos: [PhotoID]?, expecting version: Int64?, by user: UserID?
    ) async throws -> (entry: Entry, released: [ReleasedPhotoFile]) {
        let now = database.clock.now()
        return try await database.write { db in
            guard try db.exists("SELECT 1 FROM entries WHERE id = \(id) AND familyId = \(family) \(db.dialect.lockingRows)") else {
                throw FamilyTable.entries.notFound(id)
            }
            let stored = try Self.fetch(db, family: family, id: id)
            guard version == nil || version == stored.version else { throw StoreError.changed(kind: "entry", id: id.description) }
            return try Self.edit(db, stored, to: content, photos: photos, by: user, now: now)
        }
    }

    public func versions(family: FamilyID, id: EntryID) async throws -> [EntryVersion] {
        try await database.read { db in
            _ = try FamilyTable.entries.row(db, family: family, id: id)
            return try SQLEntryVersions.list(db, entry: id)
        }
    }

    public func versionCount(family: FamilyID, id: EntryID) async throws -> Int {
        try await database.read { db in
            try db.int("SELECT count(*) FROM entryVersions WHERE entryId = \(id) AND familyId = \(family)") ?? 0
        }
    }

    public func restoreVersion(family: FamilyID, id: EntryID, number: Int, by user: UserID?) async throws
        -> (entry: Entry, released: [ReleasedPhotoFile])
    {
        let now = database.clock.now()
        return try await database.write { db in
            guard try db.exists("SELECT 1 FROM entries WHERE id = \(id) AND familyId = \(family) \(db.dialect.lockingRows)") else {
                throw FamilyTable.entries.notFound(id)
            }
            guard let version = try SQLEntryVersions.list(db, entry: id).first(where: { $0.number == number }) else {
                throw StoreError.notFound(kind: "version", id: "\(number)")
            }
            var content = version.content
            let children = Set(try db.strings("SELECT id FROM children WHERE familyId = \(family) AND id IN \(list: content.childIDs)"))
            content.childIDs = content.childIDs.filter { children.contains($0.sql) }
            guard !content.childIDs.isEmpty else {
                throw StoreError.conflict(field: "version", message: "every child that version named has been deleted since")
            }
            let photos = Set(try db.strings("SELECT id FROM photos WHERE familyId = \(family) AND id IN \(list: version.photoIDs)"))
            return try Self.edit(
                db, try Self.fetch(db, family: family, id: id), to: content, photos: version.photoIDs.filter { photos.contains($0.sql) },
                by: user, now: now)
        }
    }

    public func purgeVersion(family: FamilyID, id: EntryID, number: Int) async throws -> [ReleasedPhotoFile] {
        try await database.write { db in
            guard try db.exists("SELECT 1 FROM entries WHERE id = \(id) AND familyId = \(family)") else { throw FamilyTable.entries.notFound(id) }
            guard let version = try db.string("SELECT id FROM entryVersions WHERE entryId = \(id) AND number = \(number)") else {
                throw StoreError.notFound(kind: "version", id: "\(number)")
            }
            let photos = try db.strings("SELECT DISTINCT photoId FROM entryVersionPhotos WHERE versionId = \(version)")
            try db.execute("DELETE FROM entryVersionPhotos WHERE versionId = \(version)")
            try db.execute("DELETE FROM entryVersions WHERE id = \(version)")
            return try SQLPhotoStore.deleteUnreferenced(db, candidates: photos)
        }
    }

    /// One edit: the stored entry kept as a version, then the new content (and photos) written.
    private static func edit(_ db: any SQLSession, _ stored: Entry, to content: EntryContent, photos: [PhotoID]?, by user: UserID?, now: Date)
        throws -> (entry: Entry, released: [ReleasedPhotoFile])
    {
        let (id, family) = (stored.id, stored.familyID)
        try Self.checkChildren(db, family: family, content.childIDs)
        var released = try SQLEntryVersions.keep(db, stored, by: user, now: now)
        let changed = try db.execute(
            """
            UPDATE entries SET title = \(content.title), body = \(content.body), localDateTime = \(content.date.iso),
                timeZone = \(content.timeZone), weather = \(content.weather), placeName = \(content.place?.name),
                latitude = \(content.place?.latitude), longitude = \(content.place?.longitude),
                placeRegion = \(PlaceRegion.text(content.place)), modifiedAt = \(stored.nextModifiedAt(now: now))
            WHERE id = \(id) AND familyId = \(family)
            """)
        try FamilyTable.entries.requireChanged(changed, id: id)
        try db.execute("DELETE FROM entryChildren WHERE entryId = \(id)")
        try db.execute("DELETE FROM entryTags WHERE entryId = \(id)")
        try Self.link(db, entry: id, family: family, content: content)
        try Self.deleteUnusedTags(db, family: family)
        try db.searchIndex.refresh(db, entry: id)
        released += try photos.map { try SQLPhotoStore.replace(db, photos: $0, of: .entry(id), family: family) } ?? []
        return (try Self.fetch(db, family: family, id: id), released)
    }

    /// Read first, written only when a place is found (an hourly look at a diary with nothing to fill writes nothing);
    /// each row only while it still has those coordinates and no place, whatever was edited in between.
    public func fillPlaceRegions() async throws -> Int {
        let found = try await database.read { db in
            try db.rows("SELECT id, latitude, longitude FROM entries WHERE placeRegion IS NULL AND latitude IS NOT NULL AND longitude IS NOT NULL")
                .compactMap { row -> (id: EntryID, latitude: Double, longitude: Double, region: String)? in
                    guard let id = EntryID(try row.string("id")), let latitude = try row.optionalDouble("latitude"),
                        let longitude = try row.optionalDouble("longitude"),
                        let region = PlaceRegion.text(latitude: latitude, longitude: longitude)
                    else { return nil }
                    return (id, latitude, longitude, region)
                }
        }
        guard !found.isEmpty else { return 0 }
        return try await database.write { db in
            var filled: [EntryID] = []
            for entry in found {
                let changed = try db.execute(
                    """
                    UPDATE entries SET placeRegion = \(entry.region)
                    WHERE id = \(entry.id) AND placeRegion IS NULL AND latitude = \(entry.latitude) AND longitude = \(entry.longitude)
                    """)
                if changed == 1 { filled.append(entry.id) }
            }
            try db.searchIndex.refresh(db, entries: filled)
            return filled.count
        }
    }

    public func delete(family: FamilyID, id: EntryID, by user: UserID?) async throws -> TrashItem {
        let deletion = Trashing.Deletion(family: family, user: user, at: database.clock.now())
        return try await database.write { db in try Trashing.entry(db, id, deletion) }
    }

    public func tags(family: FamilyID) async throws -> [String] {
        // The tags table holds only tags in use (unused ones go with their last entry): no need to count uses,
        // which would read every entry's tags.
        try await database.read { db in
            try db.strings("SELECT name FROM tags WHERE familyId = \(family) ORDER BY \(db.dialect.ignoringCase("name")), name")
        }
    }

    /// Tags no entry uses any more go with their last entry.
    static func deleteUnusedTags(_ db: any SQLSession, family: FamilyID) throws {
        try db.execute("DELETE FROM tags WHERE familyId = \(family) AND NOT EXISTS (SELECT 1 FROM entryTags WHERE tagId = tags.id)")
    }

    private static func checkChildren(_ db: any SQLSession, family: FamilyID, _ ids: [ChildID]) throws {
        guard !ids.isEmpty else { return }
        let found = Set(try db.strings("SELECT id FROM children WHERE familyId = \(family) AND id IN \(list: ids)"))
        if let missing = ids.first(where: { !found.contains($0.sql) }) {
            throw StoreError.unknownReference(field: "childIds", id: missing.description)
        }
    }

    /// The entry's children and tags, in order; a tag new to the family is made (names compared without regard to case).
    private static func link(_ db: any SQLSession, entry: EntryID, family: FamilyID, content: EntryContent) throws {
        for (position, child) in content.childIDs.enumerated() {
            try db.execute(
                "INSERT INTO entryChildren (entryId, childId, familyId, position) VALUES (\(entry), \(child), \(family), \(position))")
        }
        for (position, name) in content.tags.enumerated() {
            try db.execute("INSERT INTO tags (id, familyId, name) VALUES (\(TagID()), \(family), \(name)) ON CONFLICT DO NOTHING")
            try db.execute(
                """
                INSERT INTO entryTags (entryId, tagId, familyId, position)
                SELECT \(entry), id, familyId, \(position) FROM tags WHERE familyId = \(family) AND \(db.dialect.equalsIgnoringCase("name", name))
                """)
        }
    }

    static func fetch(_ db: any SQLSession, family: FamilyID, id: EntryID) throws -> Entry {
        guard let entry = try decode(db, [try FamilyTable.entries.row(db, family: family, id: id)]).first else {
            throw FamilyTable.entries.notFound(id)
        }
        return entry
    }

    /// Decodes entry rows, loading the children, tags and photos of all of them in three queries.
    static func decode(_ db: any SQLSession, _ rows: [SQLRow]) throws -> [Entry] {
        guard !rows.isEmpty else { return [] }
        let ids = try rows.map { try $0.string("id") }
        var children: [String: [ChildID]] = [:]
        for row in try db.rows("SELECT entryId, childId FROM entryChildren WHERE entryId IN \(list: ids) ORDER BY entryId, position") {
            children[try row.string("entryId"), default: []].append(try row.id("childId"))
        }
        var tags: [String: [String]] = [:]
        for row in try db.rows(
            """
            SELECT entryTags.entryId, tags.name FROM entryTags JOIN tags ON tags.id = entryTags.tagId
            WHERE entryTags.entryId IN \(list: ids) ORDER BY entryTags.entryId, entryTags.position
            """)
        {
            tags[try row.string("entryId"), default: []].append(try row.string("name"))
        }
        var photos: [String: [PhotoID]] = [:]
        for row in try db.rows("SELECT entryId, photoId FROM entryPhotos WHERE entryId IN \(list: ids) ORDER BY entryId, position") {
            photos[try row.string("entryId"), default: []].append(try row.id("photoId"))
        }
        return try rows.map { row in
            let id = try row.string("id")
            return try decode(row, children: children[id] ?? [], tags: tags[id] ?? [], photos: photos[id] ?? [])
        }
    }

    /// The entry, checked again on the way out (a restored backup's rows were never through the domain's checks).
    private static func decode(_ row: SQLRow, children: [ChildID], tags: [String], photos: [PhotoID]) throws -> Entry {
        try readBack("entry") {
            let placeName = try row.optionalString("placeName")
            let (latitude, longitude) = (try row.optionalDouble("latitude"), try row.optionalDouble("longitude"))
            let place = placeName == nil && latitude == nil ? nil : try Place(name: placeName, latitude: latitude, longitude: longitude)
            let content = try EntryContent(
                title: try row.string("title"), body: try row.string("body"), date: try LocalDateTime(iso: try row.string("localDateTime")),
                timeZone: try row.string("timeZone"), childIDs: children, tags: tags, place: place, weather: try row.optionalString("weather"))
            return Entry(
                id: try row.id("id"), familyID: try row.id("familyId"), content: content, photoIDs: photos,
                createdAt: try row.timestamp("createdAt"), modifiedAt: try row.timestamp("modifiedAt"), authorID: try row.optionalID("authorId"))
        }
    }
}
