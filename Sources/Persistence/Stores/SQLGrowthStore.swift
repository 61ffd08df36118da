import Diary
import Foundation
import KoreanCalendar

/// `GrowthStore` over either engine.
public struct SQLGrowthStore: GrowthStore {
    let database: any StoreDatabase

    public init(_ database: any StoreDatabase) { self.database = database }

    public func measurements(family: FamilyID, child: ChildID) async throws -> [GrowthMeasurement] {
        try await database.read { db in
            _ = try FamilyTable.children.row(db, family: family, id: child)
            return try db.rows("SELECT * FROM growthMeasurements WHERE childId = \(child) ORDER BY date, createdAt, id").map(Self.decode)
        }
    }

    public func add(family: FamilyID, _ measurement: GrowthMeasurement) async throws -> GrowthMeasurement {
        let now = database.clock.now()
        try await database.write { db in
            _ = try FamilyTable.children.row(db, family: family, id: measurement.childID)
            try Self.insert(db, measurement, now: now)
        }
        return measurement
    }

    /// `add` inside a transaction the caller holds, the child already checked.
    public static func insert(_ db: any SQLSession, _ measurement: GrowthMeasurement, now: Date) throws {
        try db.execute(
            """
            INSERT INTO growthMeasurements (id, childId, kind, value, unit, date, createdAt)
            VALUES (\(measurement.id), \(measurement.childID), \(measurement.kind.rawValue), \(measurement.value),
                \(measurement.unit.rawValue), \(measurement.date.iso), \(now))
            """)
    }

    public func delete(family: FamilyID, child: ChildID, id: MeasurementID, by user: UserID?) async throws -> TrashItem {
        let deletion = Trashing.Deletion(family: family, user: user, at: database.clock.now())
        return try await database.write { db in try Trashing.measurement(db, id, child: child, deletion) }
    }

    static func decode(_ row: SQLRow) throws -> GrowthMeasurement {
        try readBack("measurement") {
            guard let kind = GrowthMeasurement.Kind(rawValue: try row.string("kind")), let unit = GrowthMeasurement.Unit(rawValue: try row.string("unit"))
            else { throw StoreError.unreadable("measurement kind or unit") }
            return try GrowthMeasurement(
                id: try row.id("id"), childID: try row.id("childId"), kind: kind, value: try row.double("value"), unit: unit,
                date: try SolarDate(iso: try row.string("date")), plausible: false)
        }
    }
}
