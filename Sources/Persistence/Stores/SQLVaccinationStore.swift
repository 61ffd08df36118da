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
            return try Self.vaccinations(db, family: family, children: [child])[child] ?? ChildVaccinations(shots: [], choices: [:], skipped: [])
        }
    }

    public func vaccinations(family: FamilyID, children: [ChildID]) async throws -> [ChildID: ChildVaccinations] {
        guard !children.isEmpty else { return [:] }
        return try await database.read { db in try Self.vaccinations(db, family: family, children: children) }
    }

    /// The records of `children` (those of the family) in three statements, whatever their number.
    private static func vaccinations(_ db: any SQLSession, family: FamilyID, children: [ChildID]) throws -> [ChildID: ChildVaccinations] {
        let ids = children.map(\.description)
        var shots: [ChildID: [VaccinationShot]] = [:]
        for row in try db.rows(
            "SELECT * FROM vaccinations WHERE familyId = \(family) AND childId IN \(list: ids) ORDER BY childId, date, createdAt, id")
        {
            shots[try row.id("childId"), default: []].append(try decodeShot(row))
        }
        var choices: [ChildID: [Vaccine.Choice: Vaccine]] = [:]
        for row in try db.rows("SELECT childId, choice, vaccine FROM vaccinationChoices WHERE familyId = \(family) AND childId IN \(list: ids)") {
            if let choice = Vaccine.Choice(rawValue: try row.string("choice")), let vaccine = Vaccine(rawValue: try row.string("vaccine")) {
                choices[try row.id("childId"), default: [:]][choice] = vaccine
            }
        }
        var skipped: [ChildID: Set<DoseKey>] = [:]
        for row in try db.rows("SELECT childId, vaccine, number FROM vaccinationSkips WHERE familyId = \(family) AND childId IN \(list: ids)") {
            if let vaccine = Vaccine(rawValue: try row.string("vaccine")) {
                skipped[try row.id("childId"), default: []].insert(DoseKey(vaccine: vaccine, number: try row.int("number")))
            }
        }
        return Dictionary(
            children.map { ($0, ChildVaccinations(shots: shots[$0] ?? [], choices: choices[$0] ?? [:], skipped: skipped[$0] ?? [])) },
            uniquingKeysWith: { first, _ in first })
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

    public func delete(family: FamilyID, child: ChildID, id: VaccinationID, by user: UserID?) async throws -> TrashItem {
        let deletion = Trashing.Deletion(family: family, user: user, at: database.clock.now())
        return try await database.write { db in try Trashing.vaccination(db, id, child: child, deletion) }
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
