import Diary
import Foundation
import KoreanCalendar

/// `AnniversaryStore` over either engine.
public struct SQLAnniversaryStore: AnniversaryStore {
    let database: any StoreDatabase

    public init(_ database: any StoreDatabase) { self.database = database }

    /// Month and day as "MM-DD": text order is calendar order.
    static func sortKey(_ dialect: SQLDialect) -> String {
        "(\(dialect.twoDigits("month")) || '-' || \(dialect.twoDigits("day")))"
    }

    public func list(family: FamilyID, after cursor: PageCursor?, limit: Int) async throws -> Page<Anniversary> {
        try await database.read { db in
            let paging = KeysetPage(sortKey: Self.sortKey(db.dialect), descending: false, cursor: cursor, limit: limit)
            let (rows, next) = try FamilyTable.anniversaries.page(db, family: family, paging: paging)
            return Page(items: try rows.map(Self.decode), next: next)
        }
    }

    public func get(family: FamilyID, id: AnniversaryID) async throws -> Anniversary {
        try await database.read { db in try Self.decode(try FamilyTable.anniversaries.row(db, family: family, id: id)) }
    }

    public func create(family: FamilyID, details: AnniversaryDetails) async throws -> Anniversary {
        let now = database.clock.now()
        return try await database.write { db in try Self.insert(db, family: family, details: details, now: now) }
    }

    /// `create` inside a transaction the caller holds.
    public static func insert(_ db: any SQLSession, family: FamilyID, details: AnniversaryDetails, now: Date) throws -> Anniversary {
        let anniversary = Anniversary(familyID: family, details: details, createdAt: now, modifiedAt: now)
        if let child = details.childID { try FamilyTable.children.requireReference(db, family: family, id: child, field: "childId") }
        try db.execute(
            """
            INSERT INTO anniversaries (id, familyId, name, calendar, month, day, isLeapMonth, isHoliday, childId, createdAt, modifiedAt)
            VALUES (\(anniversary.id), \(family), \(details.name), \(details.calendar.rawValue), \(details.month), \(details.day),
                \(details.isLeapMonth), \(details.isHoliday), \(details.childID), \(now), \(now))
            """)
        return anniversary
    }

    public func update(family: FamilyID, id: AnniversaryID, details: AnniversaryDetails) async throws -> Anniversary {
        let now = database.clock.now()
        return try await database.write { db in
            if let child = details.childID { try FamilyTable.children.requireReference(db, family: family, id: child, field: "childId") }
            let changed = try db.execute(
                """
                UPDATE anniversaries SET name = \(details.name), calendar = \(details.calendar.rawValue), month = \(details.month),
                    day = \(details.day), isLeapMonth = \(details.isLeapMonth), isHoliday = \(details.isHoliday),
                    childId = \(details.childID), modifiedAt = \(now)
                WHERE id = \(id) AND familyId = \(family)
                """)
            try FamilyTable.anniversaries.requireChanged(changed, id: id)
            return try Self.decode(try FamilyTable.anniversaries.row(db, family: family, id: id))
        }
    }

    public func delete(family: FamilyID, id: AnniversaryID, by user: UserID?) async throws -> TrashItem {
        let deletion = Trashing.Deletion(family: family, user: user, at: database.clock.now())
        return try await database.write { db in try Trashing.anniversary(db, id, deletion) }
    }

    static func decode(_ row: SQLRow) throws -> Anniversary {
        try readBack("anniversary") {
            let details = try AnniversaryDetails(
                name: try row.string("name"), calendar: CalendarKind(rawValue: try row.string("calendar")) ?? .solar,
                month: try row.int("month"), day: try row.int("day"), isLeapMonth: try row.bool("isLeapMonth"),
                isHoliday: try row.bool("isHoliday"), childID: try row.optionalID("childId"))
            return Anniversary(
                id: try row.id("id"), familyID: try row.id("familyId"), details: details,
                createdAt: try row.timestamp("createdAt"), modifiedAt: try row.timestamp("modifiedAt"))
        }
    }
}
