import Diary
import Foundation
import KoreanCalendar

/// `VaccinationStore` over either engine.
public struct SQLVaccinationStore: VaccinationStore {
    let database: any StoreDatabase

    public init(_ database: any StoreDatabase) { self.database = database }

    public func vaccinations(family: FamilyID, child: ChildID) async throws -> ChildVaccinations {
        try await database.read { db in
            _ = try FamilyTable.children.row(db, family: family, id: child)
            let shots = try db.rows("SELECT * FROM vaccinations WHERE childId = \(child) ORDER BY date, createdAt, id").map(Self.decodeShot)
            var choices: [Vaccine.Choice: Vaccine] = [:]
            for row in try db.rows("SELECT choice, vaccine FROM vaccinationChoices WHERE childId = \(child)") {
                if let choice = Vaccine.Choice(rawValue: try row.string("choice")), let vaccine = Vaccine(rawValue: try row.string("vaccine")) {
                    choices[choice] = vaccine
                }
            }
            let skipped = Set(
                try db.rows("SELECT vaccine, number FROM vaccinationSkips WHERE childId = \(child)").compactMap { row in
                    try Vaccine(rawValue: try row.string("vaccine")).map { DoseKey(vaccine: $0, number: try row.int("number")) }
                })
            return ChildVaccinations(shots: shots, choices: choices, skipped: skipped)
        }
    }

    public func record(family: FamilyID, _ shot: VaccinationShot) async throws -> VaccinationShot {
        let now = database.clock.now()
        try await database.write { db in
            _ = try FamilyTable.children.row(db, family: family, id: shot.childID)
            try db.execute(
                """
                INSERT INTO vaccinations (id, familyId, childId, product, date, place, lot, productName, createdAt)
                VALUES (\(shot.id), \(family), \(shot.childID), \(shot.record.product.rawValue), \(shot.record.date.iso), \(shot.place),
                    \(shot.lot), \(shot.productName), \(now))
                """)
        }
        return shot
    }

    public func delete(family: FamilyID, child: ChildID, id: VaccinationID) async throws {
        try await database.write { db in
            guard try db.execute("DELETE FROM vaccinations WHERE id = \(id) AND childId = \(child) AND familyId = \(family)") > 0 else {
                throw StoreError.notFound(kind: "vaccination", id: id.description)
            }
        }
    }

    public func choose(family: FamilyID, child: ChildID, _ choice: Vaccine.Choice, _ vaccine: Vaccine?) async throws {
        if let vaccine, vaccine.choice != choice {
            throw ValidationError(field: choice.rawValue, "\(vaccine.rawValue) is not one of \(choice.options.map(\.rawValue))")
        }
        try await database.write { db in
            _ = try FamilyTable.children.row(db, family: family, id: child)
            try db.execute("DELETE FROM vaccinationChoices WHERE childId = \(child) AND choice = \(choice.rawValue)")
            if let vaccine {
                try db.execute(
                    """
                    INSERT INTO vaccinationChoices (childId, familyId, choice, vaccine)
                    VALUES (\(child), \(family), \(choice.rawValue), \(vaccine.rawValue))
                    """)
            }
        }
    }

    public func setSkipped(family: FamilyID, child: ChildID, _ dose: DoseKey, _ skipped: Bool) async throws {
        try await database.write { db in
            _ = try FamilyTable.children.row(db, family: family, id: child)
            try db.execute(
                "DELETE FROM vaccinationSkips WHERE childId = \(child) AND vaccine = \(dose.vaccine.rawValue) AND number = \(dose.number)")
            if skipped {
                try db.execute(
                    """
                    INSERT INTO vaccinationSkips (childId, familyId, vaccine, number)
                    VALUES (\(child), \(family), \(dose.vaccine.rawValue), \(dose.number))
                    """)
            }
        }
    }

    static func decodeShot(_ row: SQLRow) throws -> VaccinationShot {
        try readBack("vaccination") {
            guard let product = VaccineProduct(rawValue: try row.string("product")) else { throw StoreError.unreadable("product") }
            return try VaccinationShot(
                id: try row.id("id"), childID: try row.id("childId"),
                record: VaccinationRecord(product: product, date: try SolarDate(iso: try row.string("date"))),
                place: try row.optionalString("place"), lot: try row.optionalString("lot"), productName: try row.optionalString("productName"))
        }
    }
}
