import Foundation
import KoreanCalendar

/// A child of the family: the person the diary is about. Identity is the ID; renaming changes nothing else.
public struct Child: Hashable, Sendable {
    public let id: ChildID
    public let familyID: FamilyID
    public var profile: ChildProfile
    /// The profile photo (shown square-cropped), set apart from the profile.
    public var photoID: PhotoID?
    public let createdAt: Date
    public var modifiedAt: Date

    public init(
        id: ChildID = ChildID(), familyID: FamilyID, profile: ChildProfile, photoID: PhotoID? = nil, createdAt: Date,
        modifiedAt: Date
    ) {
        self.id = id
        self.familyID = familyID
        self.profile = profile
        self.photoID = photoID
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
    }

    /// The child's age on `date` as an album writes it (생후 100일, 돌 — the lunar one for a lunar birthday), or nil
    /// before the birth or for a birth outside the calendar tables.
    public func age(on date: SolarDate) -> AgeLabel? {
        guard let birth = profile.birthDate.solarDate else { return nil }
        var lunar: LunarDate?
        if case .lunar(let date) = profile.birthDate { lunar = date }
        return AgeLabel(born: birth, lunarBirth: lunar, on: date)
    }
}

/// Everything a parent enters about a child, already validated.
public struct ChildProfile: Hashable, Sendable {
    public var name: String
    public var nickname: String?
    public var birthDate: BirthDate
    public var birthTime: ClockTime?
    public var sex: Sex?
    public var birthplace: String?
    public var hospital: String?
    /// 주민등록번호; encrypted at rest by the store, shown masked.
    public var residentNumber: ResidentNumber?

    public static let maxNameLength = 100
    public static let maxPlaceLength = 200

    public init(
        name: String, nickname: String? = nil, birthDate: BirthDate, birthTime: ClockTime? = nil, sex: Sex? = nil,
        birthplace: String? = nil, hospital: String? = nil, residentNumber: ResidentNumber? = nil
    ) throws(ValidationError) {
        self.name = try Validate.name(name, field: "name", maxLength: Self.maxNameLength)
        self.nickname = try Validate.optionalName(nickname, field: "nickname", maxLength: Self.maxNameLength)
        self.birthDate = birthDate
        self.birthTime = birthTime
        self.sex = sex
        self.birthplace = try Validate.optionalText(birthplace, field: "birthplace", maxLength: Self.maxPlaceLength)
        self.hospital = try Validate.optionalText(hospital, field: "hospital", maxLength: Self.maxPlaceLength)
        self.residentNumber = residentNumber
    }
}

/// Which calendar a date was given in.
public enum CalendarKind: String, CaseIterable, Sendable, Codable {
    /// 양력
    case solar
    /// 음력
    case lunar
}

/// A birth date as the parents gave it: in the solar calendar, or in the lunar calendar (with 윤달 flag).
/// A lunar birth date must exist in the KASI table (1391–2050).
public enum BirthDate: Hashable, Sendable {
    case solar(SolarDate)
    case lunar(LunarDate)

    public var calendar: CalendarKind {
        switch self {
        case .solar: .solar
        case .lunar: .lunar
        }
    }

    public var isLeapMonth: Bool {
        if case .lunar(let date) = self { date.isLeapMonth } else { false }
    }

    /// The birth date in the solar calendar; nil for a lunar date outside the KASI table.
    public var solarDate: SolarDate? {
        switch self {
        case .solar(let date): date
        case .lunar(let date): try? SolarDate.from(date)
        }
    }

    /// The date as `YYYY-MM-DD` in its own calendar.
    public var iso: String {
        switch self {
        case .solar(let date): date.iso
        case .lunar(let date): date.iso
        }
    }

    /// Reads the three API fields together; errors name the field at fault.
    public init(iso: String, calendar: CalendarKind, isLeapMonth: Bool) throws(ValidationError) {
        do {
            switch calendar {
            case .solar:
                guard !isLeapMonth else {
                    throw ValidationError(field: "isLeapMonth", "only a lunar birth date can be in a leap month")
                }
                self = .solar(try SolarDate(iso: iso))
            case .lunar:
                let date = try LunarDate(iso: iso, isLeapMonth: isLeapMonth)
                _ = try SolarDate.from(date)  // refuses a day 30 or a leap month that year does not have
                self = .lunar(date)
            }
        } catch let error as ValidationError {
            throw error
        } catch let error as CalendarError {
            if case .noSuchLeapMonth = error { throw ValidationError(field: "isLeapMonth", .calendar(error)) }
            throw ValidationError(field: "birthDate", .calendar(error))
        } catch {
            throw ValidationError(field: "birthDate", "\(error)")
        }
    }
}

/// Sex as recorded on the birth certificate; used for growth percentiles.
public enum Sex: String, CaseIterable, Sendable, Codable {
    case female, male
}
