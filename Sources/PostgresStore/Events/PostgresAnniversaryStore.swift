import Diary
import DiaryStore
import Foundation
import Persistence

/// `AnniversaryStore` over PostgreSQL, in month/day order (the same `MM-DD` page key as SQLite's).
public struct PostgresAnniversaryStore: AnniversaryStore {
    let database: PostgresDatabase

    public init(_ database: PostgresDatabase) { self.database = database }

    private static let sortKey = "(lpad(month::text, 2, '0') || '-' || lpad(day::text, 2, '0'))"

    public func list(family: FamilyID, after cursor: PageCursor?, limit: Int) async throws -> Page<Anniversary> {
        let paging = PostgresKeysetPage(sortKey: Self.sortKey, descending: false, cursor: cursor, limit: limit)
        let (rows, next) = try await database.readAsync { db in
            try await PostgresFamilyTable.anniversaries.page(db, family: family, paging: paging)
        }
        return Page(items: try rows.map(Self.decodeAnniversary), next: next)
    }

    public func get(family: FamilyID, id: AnniversaryID) async throws -> Anniversary {
        try Self.decodeAnniversary(
            try await database.readAsync { db in try await PostgresFamilyTable.anniversaries.row(db, family: family, id: id) })
    }

    public func create(family: FamilyID, details: AnniversaryDetails) async throws -> Anniversary {
        let now = database.clock.now()
        return try await database.writeAsync { db in try await Self.insert(db, family: family, details: details, now: now) }
    }

    /// `create` inside a transaction the caller holds.
    static func insert(_ db: PostgresTransaction, family: FamilyID, details: AnniversaryDetails, now: Date) async throws -> Anniversary {
        let anniversary = Anniversary(familyID: family, details: details, createdAt: now, modifiedAt: now)
        if let child = details.childID {
            try await PostgresFamilyTable.children.requireReference(db, family: family, id: child, field: "childId")
        }
        try await db.execute(
            """
            INSERT INTO anniversaries (id, familyId, name, calendar, month, day, isLeapMonth, isHoliday, childId,
                createdAt, modifiedAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [anniversary.id.sql, family.sql] + detailArguments(details) + [now.stored, now.stored])
        return anniversary
    }

    public func update(family: FamilyID, id: AnniversaryID, details: AnniversaryDetails) async throws -> Anniversary {
        let now = database.clock.now()
        let row = try await database.writeAsync { db in
            if let child = details.childID {
                try await PostgresFamilyTable.children.requireReference(db, family: family, id: child, field: "childId")
            }
            let changed = try await db.execute(
                """
                UPDATE anniversaries SET name = ?, calendar = ?, month = ?, day = ?, isLeapMonth = ?, isHoliday = ?,
                    childId = ?, modifiedAt = ?
                WHERE id = ? AND familyId = ? RETURNING 1
                """,
                Self.detailArguments(details) + [now.stored, id.sql, family.sql])
            guard changed == 1 else { throw PostgresFamilyTable.anniversaries.notFound(id) }
            return try await PostgresFamilyTable.anniversaries.row(db, family: family, id: id)
        }
        return try Self.decodeAnniversary(row)
    }

    public func delete(family: FamilyID, id: AnniversaryID) async throws {
        try await database.writeAsync { db in try await PostgresFamilyTable.anniversaries.delete(db, family: family, id: id) }
    }

    private static func detailArguments(_ details: AnniversaryDetails) -> [SQLArgument] {
        [
            details.name, details.calendar.rawValue, details.month, details.day, details.isLeapMonth, details.isHoliday,
            details.childID?.sql,
        ]
    }

    private static func decodeAnniversary(_ row: PostgresRecord) throws -> Anniversary {
        try readBack("anniversary") {
            let details = try AnniversaryDetails(
                name: try row.string("name"),
                calendar: CalendarKind(rawValue: try row.string("calendar")) ?? .solar,
                month: try row.int("month"),
                day: try row.int("day"),
                isLeapMonth: try row.bool("isLeapMonth"),
                isHoliday: try row.bool("isHoliday"),
                childID: try row.optionalID("childId"))
            return Anniversary(
                id: try row.id("id"), familyID: try row.id("familyId"), details: details,
                createdAt: try row.timestamp("createdAt"), modifiedAt: try row.timestamp("modifiedAt"))
        }
    }
}
