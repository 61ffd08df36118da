import Foundation
import KoreanCalendar

public typealias VaccinationID = Identifier<VaccinationShot>

/// A shot as recorded: the product, the day, and where and which lot, when the parents know.
public struct VaccinationShot: Hashable, Sendable {
    public let id: VaccinationID
    public let childID: ChildID
    public let record: VaccinationRecord
    public let place: String?
    public let lot: String?
    /// The brand name on the certificate (e.g. 인판릭스-IPV).
    public let productName: String?

    public init(
        id: VaccinationID = VaccinationID(), childID: ChildID, record: VaccinationRecord, place: String?, lot: String?,
        productName: String?
    ) throws(ValidationError) {
        self.id = id
        self.childID = childID
        self.record = record
        self.place = try Validate.optionalText(place, field: "place", maxLength: ChildProfile.maxPlaceLength)
        self.lot = try Validate.optionalText(lot, field: "lot", maxLength: 100)
        self.productName = try Validate.optionalText(productName, field: "productName", maxLength: 100)
    }
}

/// A child's shots, the alternatives the family chose, and the doses it skipped.
public struct ChildVaccinations: Sendable {
    public let shots: [VaccinationShot]
    public let choices: [Vaccine.Choice: Vaccine]
    public let skipped: Set<DoseKey>

    public init(shots: [VaccinationShot], choices: [Vaccine.Choice: Vaccine], skipped: Set<DoseKey>) {
        self.shots = shots
        self.choices = choices
        self.skipped = skipped
    }
}
