import Foundation
import KoreanCalendar

// Growth measurements and vaccinations. Each is implemented for SQLite by `SQLite…Store` (DiaryStore);
// everything else — routes, pages, services, backup, importers — speaks only these protocols and domain types.

/// A child's measurements (height/length, weight, head circumference), oldest first.
public protocol GrowthStore: Sendable {
    func measurements(family: FamilyID, child: ChildID) async throws -> [GrowthMeasurement]

    func add(family: FamilyID, _ measurement: GrowthMeasurement) async throws -> GrowthMeasurement

    /// Moves the measurement to the trash.
    func delete(family: FamilyID, child: ChildID, id: MeasurementID, by user: UserID?) async throws -> TrashItem
}

/// A child's shots, chosen alternatives and skipped doses.
public protocol VaccinationStore: Sendable {
    func vaccinations(family: FamilyID, child: ChildID) async throws -> ChildVaccinations

    /// The records of several children of the family at once (one read, whatever their number); a child with none
    /// has an empty record, one not of the family none.
    func vaccinations(family: FamilyID, children: [ChildID]) async throws -> [ChildID: ChildVaccinations]

    func record(family: FamilyID, _ shot: VaccinationShot) async throws -> VaccinationShot

    /// Moves the recorded dose to the trash.
    func delete(family: FamilyID, child: ChildID, id: VaccinationID, by user: UserID?) async throws -> TrashItem

    /// Sets (or with nil clears) the alternative chosen for a child.
    func choose(family: FamilyID, child: ChildID, _ choice: Vaccine.Choice, _ vaccine: Vaccine?) async throws

    /// Marks a dose as not to be given, or clears the mark.
    func setSkipped(family: FamilyID, child: ChildID, _ dose: DoseKey, _ skipped: Bool) async throws
}
