import Diary
import Foundation
import GRDB
import KoreanCalendar
import Persistence

/// `EventStore` over the SQLite database (`DiaryDatabase`).
public struct SQLiteEventStore: EventStore {
    let database: DiaryDatabase

    public init(_ database: DiaryDatabase) { self.database = database }

    public func list(family: FamilyID, child: ChildID? = nil, after cursor: PageCursor?, limit: Int) async throws -> Page<Event> {
        let paging = KeysetPage(sortKey: "date", descending: true, cursor: cursor, limit: limit)
        return try await database.writer.read { db in
            let (rows, next) = try FamilyTable.events.page(
                db, family: family, paging: paging, condition: child == nil ? "" : " AND childId = ?",
                arguments: child.map { [$0.sql] } ?? [])
            return Page(items: try rows.map { try decodeEvent(db, $0) }, next: next)
        }
    }

    public func get(family: FamilyID, id: EventID) async throws -> Event {
        try await database.writer.read { db in try fetch(db, family: family, id: id) }
    }

    public func create(family: FamilyID, details: EventDetails, photos: [PhotoID] = []) async throws -> Event {
        let now = database.clock.now()
        return try await database.writer.write { db in try insert(db, family: family, details: details, photos: photos, now: now) }
    }

    /// `create` inside a transaction the caller holds.
    func insert(_ db: Database, family: FamilyID, details: EventDetails, photos: [PhotoID], now: Date) throws -> Event {
        let event = Event(familyID: family, details: details, createdAt: now, modifiedAt: now)
        try FamilyTable.children.requireReference(db, family: family, id: details.childID, field: "childId")
        try db.execute(
            sql: """
                INSERT INTO events (id, familyId, childId, kind, title, date, time, notes, hospital, doctor, diagnosis,
                    createdAt, modifiedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [event.id.sql, family.sql] + detailArguments(details) + [now.stored, now.stored])
        try SQLitePhotoStore.link(db, photos, to: .event(event.id), family: family)
        return try fetch(db, family: family, id: event.id)
    }

    public func update(family: FamilyID, id: EventID, details: EventDetails, photos: [PhotoID]? = nil) async throws
        -> (event: Event, released: [ReleasedPhotoFile])
    {
        let now = database.clock.now()
        return try await database.writer.write { db in
            try FamilyTable.children.requireReference(db, family: family, id: details.childID, field: "childId")
            try db.execute(
                sql: """
                    UPDATE events SET childId = ?, kind = ?, title = ?, date = ?, time = ?, notes = ?, hospital = ?,
                        doctor = ?, diagnosis = ?, modifiedAt = ?
                    WHERE id = ? AND familyId = ?
                    """,
                arguments: detailArguments(details) + [now.stored, id.sql, family.sql])
            try FamilyTable.events.requireChanged(db, id: id)
            let released = try photos.map { try SQLitePhotoStore.replace(db, photos: $0, of: .event(id), family: family) } ?? []
            return (try fetch(db, family: family, id: id), released)
        }
    }

    /// Deletes the event and its photos that nothing else uses; returns the photo files to delete.
    @discardableResult
    public func delete(family: FamilyID, id: EventID) async throws -> [ReleasedPhotoFile] {
        try await database.writer.write { db in
            let photos = try SQLitePhotoStore.photoIDs(db, of: .event(id))
            try FamilyTable.events.delete(db, family: family, id: id)
            return try SQLitePhotoStore.deleteUnreferenced(db, candidates: photos)
        }
    }


    private func detailArguments(_ details: EventDetails) -> StatementArguments {
        [
            details.childID.sql, details.kind.rawValue, details.title, details.date.iso, details.time?.iso, details.notes,
            details.hospital, details.doctor, details.diagnosis,
        ]
    }

    private func fetch(_ db: Database, family: FamilyID, id: EventID) throws -> Event {
        try decodeEvent(db, try FamilyTable.events.row(db, family: family, id: id))
    }

    private func decodeEvent(_ db: Database, _ row: Row) throws -> Event {
        try readBack("event") {
            let kind: String = try row.decode(forColumn: "kind")
            let details = try EventDetails(
                childID: try row.id("childId"),
                kind: EventDetails.Kind(rawValue: kind) ?? .other,
                title: try row.decode(forColumn: "title"),
                date: try SolarDate(iso: try row.decode(String.self, forColumn: "date")),
                time: try (row.decode(String?.self, forColumn: "time")).map { try ClockTime(iso: $0) },
                notes: try row.decode(forColumn: "notes"),
                hospital: try row.decode(forColumn: "hospital"),
                doctor: try row.decode(forColumn: "doctor"),
                diagnosis: try row.decode(forColumn: "diagnosis"))
            let id: EventID = try row.id("id")
            return Event(
                id: id, familyID: try row.id("familyId"), details: details,
                photoIDs: try SQLitePhotoStore.photoIDs(db, of: .event(id)).compactMap(PhotoID.init),
                createdAt: try row.timestamp("createdAt"), modifiedAt: try row.timestamp("modifiedAt"))
        }
    }
}
