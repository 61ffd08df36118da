import Foundation
import KoreanCalendar

/// A one-off happening in one child's life: a hospital visit, a milestone, anything else worth a date.
public struct Event: Hashable, Sendable {
    public let id: EventID
    public let familyID: FamilyID
    public var details: EventDetails
    /// Photos kept with it (a prescription, the doctor's note), in order.
    public var photoIDs: [PhotoID]
    public let createdAt: Date
    public var modifiedAt: Date

    public init(
        id: EventID = EventID(), familyID: FamilyID, details: EventDetails, photoIDs: [PhotoID] = [], createdAt: Date,
        modifiedAt: Date
    ) {
        self.id = id
        self.familyID = familyID
        self.details = details
        self.photoIDs = photoIDs
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
    }
}

public struct EventDetails: Hashable, Sendable {
    public var childID: ChildID
    public var kind: Kind
    public var title: String
    public var date: SolarDate
    public var time: ClockTime?
    public var notes: String?
    /// For hospital visits.
    public var hospital: String?
    public var doctor: String?
    public var diagnosis: String?

    public enum Kind: String, CaseIterable, Sendable, Codable {
        /// 병원 진료
        case hospital
        /// 성장 기록 (first steps, first word…)
        case milestone
        case other
    }

    public init(
        childID: ChildID, kind: Kind, title: String, date: SolarDate, time: ClockTime? = nil, notes: String? = nil,
        hospital: String? = nil, doctor: String? = nil, diagnosis: String? = nil
    ) throws(ValidationError) {
        self.childID = childID
        self.kind = kind
        self.title = try Validate.requiredText(title, field: "title", maxLength: EntryContent.maxTitleLength)
        self.date = date
        self.time = time
        self.notes = try Validate.optionalText(notes, field: "notes", maxLength: EntryContent.maxBodyLength)
        self.hospital = try Validate.optionalText(hospital, field: "hospital", maxLength: ChildProfile.maxPlaceLength)
        self.doctor = try Validate.optionalText(doctor, field: "doctor", maxLength: ChildProfile.maxNameLength)
        self.diagnosis = try Validate.optionalText(diagnosis, field: "diagnosis", maxLength: EntryContent.maxTitleLength)
    }
}
