import Diary
import Foundation
import GRDB
import Persistence

/// `AnniversaryStore` over the SQLite database (`DiaryDatabase`).
public struct SQLiteAnniversaryStore: AnniversaryStore {
    let database: DiaryDatabase

    public init(_ database: DiaryDatabase) { self.database = database }

    private static let sortKey = "printf('%02d-%02d', month, day)"

    public func list(family: FamilyID, after cursor: PageCursor?, limit: Int) async throws -> Page<Anniversary> {
        let paging = KeysetPage(sortKey: Self.sortKey, descending: false, cursor: cursor, limit: limit)
        return try await database.writer.read { db in
            let (rows, next) = try FamilyTable.anniversaries.page(db, family: family, paging: paging)
            return Page(items: try rows.map(decodeAnniversary), next: next)
        }
    }

    public func get(family: FamilyID, id: AnniversaryID) async throws -> Anniversary {
        try await database.writer.read { db in try fetch(db, family: family, id: id) }
    }

    public func create(family: FamilyID, details: AnniversaryDetails) async throws -> Anniversary {
        let now = database.clock.now()
        return try await database.writer.write { db in try insert(db, family: family, details: details, now: now) }
    }

    /// `create` inside a transaction the caller holds.
    func insert(_ db: Database, family: FamilyID, details: AnniversaryDetails, now: Date) throws -> Anniversary {
        let anniversary = Anniversary(familyID: family, details: details, createdAt: now, modifiedAt: now)
        if let child = details.childID { try FamilyTable.children.requireReference(db, family: family, id: child, field: "childId") }
        try db.execute(
            sql: """
                INSERT INTO anniversaries (id, familyId, name, calendar, month, day, isLeapMonth, isHoliday, childId,
                    createdAt, modifiedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [anniversary.id.sql, family.sql] + detailArguments(details) + [now.stored, now.stored])
        return anniversary
    }

    public func update(family: FamilyID, id: AnniversaryID, details: AnniversaryDetails) async throws -> Anniversary {
        let now = database.clock.now()
        return try await database.writer.write { db in
            if let child = details.childID { try FamilyTable.children.requireReference(db, family: family, id: child, field: "childId") }
            try db.execute(
                sql: """
                    UPDATE anniversaries SET name = ?, calendar = ?, month = ?, day = ?, isLeapMonth = ?, isHoliday = ?,
                        childId = ?, modifiedAt = ?
                    WHERE id = ? AND familyId = ?
                    """,
                arguments: detailArguments(details) + [now.stored, id.sql, family.sql])
            try FamilyTable.anniversaries.requireChanged(db, id: id)
            return try fetch(db, family: family, id: id)
        }
    }

    public func delete(family: FamilyID, id: AnniversaryID) async throws {
        try await database.writer.write { db in
            try FamilyTable.anniversaries.delete(db, family: family, id: id)
        }
    }


    private func detailArguments(_ details: AnniversaryDetails) -> StatementArguments {
        [
            details.name, details.calendar.rawValue, details.month, details.day, details.isLeapMonth, details.isHoliday,
            details.childID?.sql,
        ]
    }

    private func fetch(_ db: Database, family: FamilyID, id: AnniversaryID) throws -> Anniversary {
        try decodeAnniversary(try FamilyTable.anniversaries.row(db, family: family, id: id))
    }

    private func decodeAnniversary(_ row: Row) throws -> Anniversary {
        try readBack("anniversary") {
            let calendar: String = try row.decode(forColumn: "calendar")
            let details = try AnniversaryDetails(
                name: try row.decode(forColumn: "name"),
                calendar: CalendarKind(rawValue: calendar) ?? .solar,
                month: try row.decode(forColumn: "month"),
                day: try row.decode(forColumn: "day"),
                isLeapMonth: try row.decode(forColumn: "isLeapMonth"),
                isHoliday: try row.decode(forColumn: "isHoliday"),
                childID: try row.optionalID("childId"))
            return Anniversary(
                id: try row.id("id"), familyID: try row.id("familyId"), details: details,
                createdAt: try row.timestamp("createdAt"), modifiedAt: try row.timestamp("modifiedAt"))
        }
    }
}
