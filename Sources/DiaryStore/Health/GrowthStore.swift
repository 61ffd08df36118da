import Diary
import Foundation
import GRDB
import KoreanCalendar
import Persistence

/// `GrowthStore` over the SQLite database (`DiaryDatabase`).
public struct SQLiteGrowthStore: GrowthStore {
    let database: DiaryDatabase

    public init(_ database: DiaryDatabase) { self.database = database }

    public func measurements(family: FamilyID, child: ChildID) async throws -> [GrowthMeasurement] {
        try await database.writer.read { db in
            _ = try FamilyTable.children.row(db, family: family, id: child)
            return try Row.fetchAll(
                db, sql: "SELECT * FROM growthMeasurements WHERE childId = ? ORDER BY date, createdAt, id", arguments: [child.sql]
            ).map(Self.decode)
        }
    }

    public func add(family: FamilyID, _ measurement: GrowthMeasurement) async throws -> GrowthMeasurement {
        let now = database.clock.now()
        try await database.writer.write { db in
            _ = try FamilyTable.children.row(db, family: family, id: measurement.childID)
            try Self.insert(db, measurement, now: now)
        }
        return measurement
    }

    /// `add` inside a transaction the caller holds, the child already checked.
    static func insert(_ db: Database, _ measurement: GrowthMeasurement, now: Date) throws {
        try db.execute(
            sql: "INSERT INTO growthMeasurements (id, childId, kind, value, unit, date, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)",
            arguments: [measurement.id.sql, measurement.childID.sql, measurement.kind.rawValue, measurement.value,
                measurement.unit.rawValue, measurement.date.iso, now.stored])
    }

    public func delete(family: FamilyID, child: ChildID, id: MeasurementID) async throws {
        try await database.writer.write { db in
            _ = try FamilyTable.children.row(db, family: family, id: child)
            try db.execute(sql: "DELETE FROM growthMeasurements WHERE id = ? AND childId = ?", arguments: [id.sql, child.sql])
            guard db.changesCount > 0 else { throw StoreError.notFound(kind: "measurement", id: id.description) }
        }
    }

    private static func decode(_ row: Row) throws -> GrowthMeasurement {
        try readBack("measurement") {
            guard let kind = GrowthMeasurement.Kind(rawValue: row["kind"]), let unit = GrowthMeasurement.Unit(rawValue: row["unit"])
            else { throw StoreError.unreadable("measurement kind or unit") }
            return try GrowthMeasurement(
                id: try row.id("id"), childID: try row.id("childId"), kind: kind, value: row["value"], unit: unit,
                date: try SolarDate(iso: row["date"] as String), plausible: false)
        }
    }
}
