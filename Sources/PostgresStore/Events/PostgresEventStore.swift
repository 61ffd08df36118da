import Diary
import DiaryStore
import Foundation
import KoreanCalendar
import Persistence

/// `EventStore` over PostgreSQL.
public struct PostgresEventStore: EventStore {
    let database: PostgresDatabase

    public init(_ database: PostgresDatabase) { self.database = database }

    public func list(family: FamilyID, child: ChildID?, after cursor: PageCursor?, limit: Int) async throws -> Page<Event> {
        let paging = PostgresKeysetPage(sortKey: "date", descending: true, cursor: cursor, limit: limit)
        return try await database.readAsync { db in
            let (rows, next) = try await PostgresFamilyTable.events.page(
                db, family: family, paging: paging, condition: child == nil ? "" : " AND childId = ?",
                arguments: child.map { [$0.sql] } ?? [])
            var events: [Event] = []
            for row in rows { events.append(try await Self.decodeEvent(db, row)) }
            return Page(items: events, next: next)
        }
    }

    public func get(family: FamilyID, id: EventID) async throws -> Event {
        try await database.readAsync { db in try await Self.fetch(db, family: family, id: id) }
    }

    public func create(family: FamilyID, details: EventDetails, photos: [PhotoID]) async throws -> Event {
        let now = database.clock.now()
        return try await database.writeAsync { db in try await Self.insert(db, family: family, details: details, photos: photos, now: now) }
    }

    /// `create` inside a transaction the caller holds.
    static func insert(_ db: PostgresTransaction, family: FamilyID, details: EventDetails, photos: [PhotoID], now: Date) async throws -> Event {
        let event = Event(familyID: family, details: details, createdAt: now, modifiedAt: now)
        try await PostgresFamilyTable.children.requireReference(db, family: family, id: details.childID, field: "childId")
        try await db.execute(
            """
            INSERT INTO events (id, familyId, childId, kind, title, date, time, notes, hospital, doctor, diagnosis,
                createdAt, modifiedAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [event.id.sql, family.sql] + detailArguments(details) + [now.stored, now.stored])
        try await PostgresPhotoStore.link(db, photos, to: .event(event.id), family: family)
        return try await fetch(db, family: family, id: event.id)
    }

    public func update(family: FamilyID, id: EventID, details: EventDetails, photos: [PhotoID]?) async throws
        -> (event: Event, released: [ReleasedPhotoFile])
    {
        let now = database.clock.now()
        return try await database.writeAsync { db in
            try await PostgresFamilyTable.children.requireReference(db, family: family, id: details.childID, field: "childId")
            let changed = try await db.execute(
                """
                UPDATE events SET childId = ?, kind = ?, title = ?, date = ?, time = ?, notes = ?, hospital = ?,
                    doctor = ?, diagnosis = ?, modifiedAt = ?
                WHERE id = ? AND familyId = ? RETURNING 1
                """,
                Self.detailArguments(details) + [now.stored, id.sql, family.sql])
            guard changed == 1 else { throw PostgresFamilyTable.events.notFound(id) }
            var released: [ReleasedPhotoFile] = []
            if let photos { released = try await PostgresPhotoStore.replace(db, photos: photos, of: .event(id), family: family) }
            return (try await Self.fetch(db, family: family, id: id), released)
        }
    }

    @discardableResult
    public func delete(family: FamilyID, id: EventID) async throws -> [ReleasedPhotoFile] {
        try await database.writeAsync { db in
            let photos = try await PostgresPhotoStore.photoIDs(db, of: .event(id))
            try await PostgresFamilyTable.events.delete(db, family: family, id: id)
            return try await PostgresPhotoStore.deleteUnreferenced(db, candidates: photos)
        }
    }

    private static func detailArguments(_ details: EventDetails) -> [SQLArgument] {
        [
            details.childID.sql, details.kind.rawValue, details.title, details.date.iso, details.time?.iso, details.notes,
            details.hospital, details.doctor, details.diagnosis,
        ]
    }

    private static func fetch(_ db: PostgresTransaction, family: FamilyID, id: EventID) async throws -> Event {
        try await decodeEvent(db, try await PostgresFamilyTable.events.row(db, family: family, id: id))
    }

    private static func decodeEvent(_ db: PostgresTransaction, _ row: PostgresRecord) async throws -> Event {
        let id: EventID = try row.id("id")
        let photos = try await PostgresPhotoStore.photoIDs(db, of: .event(id)).compactMap(PhotoID.init)
        return try readBack("event") {
            let details = try EventDetails(
                childID: try row.id("childId"),
                kind: EventDetails.Kind(rawValue: try row.string("kind")) ?? .other,
                title: try row.string("title"),
                date: try SolarDate(iso: try row.string("date")),
                time: try row.optionalString("time").map { try ClockTime(iso: $0) },
                notes: try row.optionalString("notes"),
                hospital: try row.optionalString("hospital"),
                doctor: try row.optionalString("doctor"),
                diagnosis: try row.optionalString("diagnosis"))
            return Event(
                id: id, familyID: try row.id("familyId"), details: details, photoIDs: photos,
                createdAt: try row.timestamp("createdAt"), modifiedAt: try row.timestamp("modifiedAt"))
        }
    }
}
