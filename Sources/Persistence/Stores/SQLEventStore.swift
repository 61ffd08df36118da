import Diary
import Foundation
import KoreanCalendar

/// `EventStore` over either engine.
public struct SQLEventStore: EventStore {
    let database: any StoreDatabase

    public init(_ database: any StoreDatabase) { self.database = database }

    public func list(family: FamilyID, child: ChildID? = nil, after cursor: PageCursor?, limit: Int) async throws -> Page<Event> {
        let paging = KeysetPage(sortKey: "date", descending: true, cursor: cursor, limit: limit)
        return try await database.read { db in
            let condition: SQL = child.map { " AND childId = \($0)" } ?? ""
            let (rows, next) = try FamilyTable.events.page(db, family: family, paging: paging, condition: condition)
            return Page(items: try rows.map { try Self.decode(db, $0) }, next: next)
        }
    }

    public func get(family: FamilyID, id: EventID) async throws -> Event {
        try await database.read { db in try Self.fetch(db, family: family, id: id) }
    }

    public func create(family: FamilyID, details: EventDetails, photos: [PhotoID] = []) async throws -> Event {
        let now = database.clock.now()
        return try await database.write { db in try Self.insert(db, family: family, details: details, photos: photos, now: now) }
    }

    /// `create` inside a transaction the caller holds.
    public static func insert(_ db: any SQLSession, family: FamilyID, details: EventDetails, photos: [PhotoID], now: Date) throws -> Event {
        let event = Event(familyID: family, details: details, createdAt: now, modifiedAt: now)
        try FamilyTable.children.requireReference(db, family: family, id: details.childID, field: "childId")
        try db.execute(
            """
            INSERT INTO events (id, familyId, childId, kind, title, date, time, notes, hospital, doctor, diagnosis, createdAt, modifiedAt)
            VALUES (\(event.id), \(family), \(details.childID), \(details.kind.rawValue), \(details.title), \(details.date.iso),
                \(details.time?.iso), \(details.notes), \(details.hospital), \(details.doctor), \(details.diagnosis), \(now), \(now))
            """)
        try SQLPhotoStore.link(db, photos, to: .event(event.id), family: family)
        return try fetch(db, family: family, id: event.id)
    }

    public func update(family: FamilyID, id: EventID, details: EventDetails, photos: [PhotoID]? = nil) async throws
        -> (event: Event, released: [ReleasedPhotoFile])
    {
        let now = database.clock.now()
        return try await database.write { db in
            try FamilyTable.children.requireReference(db, family: family, id: details.childID, field: "childId")
            let changed = try db.execute(
                """
                UPDATE events SET childId = \(details.childID), kind = \(details.kind.rawValue), title = \(details.title),
                    date = \(details.date.iso), time = \(details.time?.iso), notes = \(details.notes), hospital = \(details.hospital),
                    doctor = \(details.doctor), diagnosis = \(details.diagnosis), modifiedAt = \(now)
                WHERE id = \(id) AND familyId = \(family)
                """)
            try FamilyTable.events.requireChanged(changed, id: id)
            let released = try photos.map { try SQLPhotoStore.replace(db, photos: $0, of: .event(id), family: family) } ?? []
            return (try Self.fetch(db, family: family, id: id), released)
        }
    }

    public func delete(family: FamilyID, id: EventID, by user: UserID?) async throws -> TrashItem {
        let deletion = Trashing.Deletion(family: family, user: user, at: database.clock.now())
        return try await database.write { db in try Trashing.event(db, id, deletion) }
    }

    static func fetch(_ db: any SQLSession, family: FamilyID, id: EventID) throws -> Event {
        try decode(db, try FamilyTable.events.row(db, family: family, id: id))
    }

    static func decode(_ db: any SQLSession, _ row: SQLRow) throws -> Event {
        try readBack("event") {
            let details = try EventDetails(
                childID: try row.id("childId"), kind: EventDetails.Kind(rawValue: try row.string("kind")) ?? .other,
                title: try row.string("title"), date: try SolarDate(iso: try row.string("date")),
                time: try row.optionalString("time").map { try ClockTime(iso: $0) }, notes: try row.optionalString("notes"),
                hospital: try row.optionalString("hospital"), doctor: try row.optionalString("doctor"),
                diagnosis: try row.optionalString("diagnosis"))
            let id: EventID = try row.id("id")
            return Event(
                id: id, familyID: try row.id("familyId"), details: details,
                photoIDs: try SQLPhotoStore.photoIDs(db, of: .event(id)).compactMap(PhotoID.init),
                createdAt: try row.timestamp("createdAt"), modifiedAt: try row.timestamp("modifiedAt"))
        }
    }
}
