import Diary
import Foundation
import GRDB
import KoreanCalendar
import Persistence

/// `VaccinationStore` over the SQLite database (`DiaryDatabase`).
public struct SQLiteVaccinationStore: VaccinationStore {
    let database: DiaryDatabase

    public init(_ database: DiaryDatabase) { self.database = database }

    public func vaccinations(family: FamilyID, child: ChildID) async throws -> ChildVaccinations {
        try await database.writer.read { db in
            _ = try FamilyTable.children.row(db, family: family, id: child)
            let shots = try Row.fetchAll(
                db, sql: "SELECT * FROM vaccinations WHERE childId = ? ORDER BY date, createdAt, id", arguments: [child.sql]
            ).map(Self.decodeShot)
            var choices: [Vaccine.Choice: Vaccine] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT choice, vaccine FROM vaccinationChoices WHERE childId = ?", arguments: [child.sql]) {
                if let choice = Vaccine.Choice(rawValue: row["choice"]), let vaccine = Vaccine(rawValue: row["vaccine"]) {
                    choices[choice] = vaccine
                }
            }
            let skipped = Set(try Row.fetchAll(
                db, sql: "SELECT vaccine, number FROM vaccinationSkips WHERE childId = ?", arguments: [child.sql]
            ).compactMap { row in Vaccine(rawValue: row["vaccine"]).map { DoseKey(vaccine: $0, number: row["number"]) } })
            return ChildVaccinations(shots: shots, choices: choices, skipped: skipped)
        }
    }

    public func record(family: FamilyID, _ shot: VaccinationShot) async throws -> VaccinationShot {
        let now = database.clock.now()
        try await database.writer.write { db in
            _ = try FamilyTable.children.row(db, family: family, id: shot.childID)
            try db.execute(
                sql: """
                    INSERT INTO vaccinations (id, familyId, childId, product, date, place, lot, productName, createdAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [shot.id.sql, family.sql, shot.childID.sql, shot.record.product.rawValue, shot.record.date.iso,
                    shot.place, shot.lot, shot.productName, now.stored])
        }
        return shot
    }

    public func delete(family: FamilyID, child: ChildID, id: VaccinationID) async throws {
        try await database.writer.write { db in
            try db.execute(
                sql: "DELETE FROM vaccinations WHERE id = ? AND childId = ? AND familyId = ?",
                arguments: [id.sql, child.sql, family.sql])
            guard db.changesCount > 0 else { throw StoreError.notFound(kind: "vaccination", id: id.description) }
        }
    }

    public func choose(family: FamilyID, child: ChildID, _ choice: Vaccine.Choice, _ vaccine: Vaccine?) async throws {
        if let vaccine, vaccine.choice != choice {
            throw ValidationError(field: choice.rawValue, "\(vaccine.rawValue) is not one of \(choice.options.map(\.rawValue))")
        }
        try await database.writer.write { db in
            _ = try FamilyTable.children.row(db, family: family, id: child)
            try db.execute(sql: "DELETE FROM vaccinationChoices WHERE childId = ? AND choice = ?", arguments: [child.sql, choice.rawValue])
            if let vaccine {
                try db.execute(
                    sql: "INSERT INTO vaccinationChoices (childId, familyId, choice, vaccine) VALUES (?, ?, ?, ?)",
                    arguments: [child.sql, family.sql, choice.rawValue, vaccine.rawValue])
            }
        }
    }

    public func setSkipped(family: FamilyID, child: ChildID, _ dose: DoseKey, _ skipped: Bool) async throws {
        try await database.writer.write { db in
            _ = try FamilyTable.children.row(db, family: family, id: child)
            try db.execute(
                sql: "DELETE FROM vaccinationSkips WHERE childId = ? AND vaccine = ? AND number = ?",
                arguments: [child.sql, dose.vaccine.rawValue, dose.number])
            if skipped {
                try db.execute(
                    sql: "INSERT INTO vaccinationSkips (childId, familyId, vaccine, number) VALUES (?, ?, ?, ?)",
                    arguments: [child.sql, family.sql, dose.vaccine.rawValue, dose.number])
            }
        }
    }

    private static func decodeShot(_ row: Row) throws -> VaccinationShot {
        try readBack("vaccination") {
            guard let product = VaccineProduct(rawValue: row["product"]) else { throw StoreError.unreadable("product") }
            return try VaccinationShot(
                id: try row.id("id"), childID: try row.id("childId"),
                record: VaccinationRecord(product: product, date: try SolarDate(iso: row["date"] as String)),
                place: row["place"], lot: row["lot"], productName: row["productName"])
        }
    }
}
