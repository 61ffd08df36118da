import Diary
import DiaryStore
import Foundation
import KoreanCalendar
import Persistence

/// `GrowthStore` over PostgreSQL.
public struct PostgresGrowthStore: GrowthStore {
    let database: PostgresDatabase

    public init(_ database: PostgresDatabase) { self.database = database }

    public func measurements(family: FamilyID, child: ChildID) async throws -> [GrowthMeasurement] {
        try await database.readAsync { db in
            _ = try await PostgresFamilyTable.children.row(db, family: family, id: child)
            return try await db.rows("SELECT * FROM growthMeasurements WHERE childId = ? ORDER BY date, createdAt, id", [child.sql])
        }.map(Self.decode)
    }

    public func add(family: FamilyID, _ measurement: GrowthMeasurement) async throws -> GrowthMeasurement {
        let now = database.clock.now()
        try await database.writeAsync { db in
            _ = try await PostgresFamilyTable.children.row(db, family: family, id: measurement.childID)
            try await Self.insert(db, measurement, now: now)
        }
        return measurement
    }

    /// `add` inside a transaction the caller holds, the child already checked.
    static func insert(_ db: PostgresTransaction, _ measurement: GrowthMeasurement, now: Date) async throws {
        try await db.execute(
            "INSERT INTO growthMeasurements (id, childId, kind, value, unit, date, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [measurement.id.sql, measurement.childID.sql, measurement.kind.rawValue, measurement.value, measurement.unit.rawValue,
                measurement.date.iso, now.stored])
    }

    public func delete(family: FamilyID, child: ChildID, id: MeasurementID) async throws {
        try await database.writeAsync { db in
            _ = try await PostgresFamilyTable.children.row(db, family: family, id: child)
            let deleted = try await db.execute(
                "DELETE FROM growthMeasurements WHERE id = ? AND childId = ? RETURNING 1", [id.sql, child.sql])
            guard deleted > 0 else { throw StoreError.notFound(kind: "measurement", id: id.description) }
        }
    }

    private static func decode(_ row: PostgresRecord) throws -> GrowthMeasurement {
        try readBack("measurement") {
            guard let kind = GrowthMeasurement.Kind(rawValue: try row.string("kind")),
                let unit = GrowthMeasurement.Unit(rawValue: try row.string("unit"))
            else { throw StoreError.unreadable("measurement kind or unit") }
            return try GrowthMeasurement(
                id: try row.id("id"), childID: try row.id("childId"), kind: kind, value: try row.double("value"), unit: unit,
                date: try SolarDate(iso: try row.string("date")), plausible: false)
        }
    }
}

/// `VaccinationStore` over PostgreSQL.
public struct PostgresVaccinationStore: VaccinationStore {
    let database: PostgresDatabase

    public init(_ database: PostgresDatabase) { self.database = database }

    public func vaccinations(family: FamilyID, child: ChildID) async throws -> ChildVaccinations {
        let (shotRows, choiceRows, skipRows) = try await database.readAsync { db in
            _ = try await PostgresFamilyTable.children.row(db, family: family, id: child)
            return (
                try await db.rows("SELECT * FROM vaccinations WHERE childId = ? ORDER BY date, createdAt, id", [child.sql]),
                try await db.rows("SELECT choice, vaccine FROM vaccinationChoices WHERE childId = ?", [child.sql]),
                try await db.rows("SELECT vaccine, number FROM vaccinationSkips WHERE childId = ?", [child.sql])
            )
        }
        var choices: [Vaccine.Choice: Vaccine] = [:]
        for row in choiceRows {
            if let choice = Vaccine.Choice(rawValue: try row.string("choice")), let vaccine = Vaccine(rawValue: try row.string("vaccine")) {
                choices[choice] = vaccine
            }
        }
        let skipped = Set(try skipRows.compactMap { row in
            try Vaccine(rawValue: try row.string("vaccine")).map { DoseKey(vaccine: $0, number: try row.int("number")) }
        })
        return ChildVaccinations(shots: try shotRows.map(Self.decodeShot), choices: choices, skipped: skipped)
    }

    public func record(family: FamilyID, _ shot: VaccinationShot) async throws -> VaccinationShot {
        let now = database.clock.now()
        try await database.writeAsync { db in
            _ = try await PostgresFamilyTable.children.row(db, family: family, id: shot.childID)
            try await db.execute(
                """
                INSERT INTO vaccinations (id, familyId, childId, product, date, place, lot, productName, createdAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [shot.id.sql, family.sql, shot.childID.sql, shot.record.product.rawValue, shot.record.date.iso, shot.place, shot.lot,
                    shot.productName, now.stored])
        }
        return shot
    }

    public func delete(family: FamilyID, child: ChildID, id: VaccinationID) async throws {
        try await database.writeAsync { db in
            let deleted = try await db.execute(
                "DELETE FROM vaccinations WHERE id = ? AND childId = ? AND familyId = ? RETURNING 1", [id.sql, child.sql, family.sql])
            guard deleted > 0 else { throw StoreError.notFound(kind: "vaccination", id: id.description) }
        }
    }

    public func choose(family: FamilyID, child: ChildID, _ choice: Vaccine.Choice, _ vaccine: Vaccine?) async throws {
        if let vaccine, vaccine.choice != choice {
            throw ValidationError(field: choice.rawValue, "\(vaccine.rawValue) is not one of \(choice.options.map(\.rawValue))")
        }
        try await database.writeAsync { db in
            _ = try await PostgresFamilyTable.children.row(db, family: family, id: child)
            try await db.execute("DELETE FROM vaccinationChoices WHERE childId = ? AND choice = ?", [child.sql, choice.rawValue])
            if let vaccine {
                try await db.execute(
                    "INSERT INTO vaccinationChoices (childId, familyId, choice, vaccine) VALUES (?, ?, ?, ?)",
                    [child.sql, family.sql, choice.rawValue, vaccine.rawValue])
            }
        }
    }

    public func setSkipped(family: FamilyID, child: ChildID, _ dose: DoseKey, _ skipped: Bool) async throws {
        try await database.writeAsync { db in
            _ = try await PostgresFamilyTable.children.row(db, family: family, id: child)
            try await db.execute(
                "DELETE FROM vaccinationSkips WHERE childId = ? AND vaccine = ? AND number = ?",
                [child.sql, dose.vaccine.rawValue, dose.number])
            if skipped {
                try await db.execute(
                    "INSERT INTO vaccinationSkips (childId, familyId, vaccine, number) VALUES (?, ?, ?, ?)",
                    [child.sql, family.sql, dose.vaccine.rawValue, dose.number])
            }
        }
    }

    private static func decodeShot(_ row: PostgresRecord) throws -> VaccinationShot {
        try readBack("vaccination") {
            guard let product = VaccineProduct(rawValue: try row.string("product")) else { throw StoreError.unreadable("product") }
            return try VaccinationShot(
                id: try row.id("id"), childID: try row.id("childId"),
                record: VaccinationRecord(product: product, date: try SolarDate(iso: try row.string("date"))),
                place: try row.optionalString("place"), lot: try row.optionalString("lot"),
                productName: try row.optionalString("productName"))
        }
    }
}
