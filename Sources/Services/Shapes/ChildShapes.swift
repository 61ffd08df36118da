import Diary
import Foundation
import KoreanCalendar

/// A child as the API shows it. The resident number appears only masked.
public struct ChildResource: Encodable {
    let id: ChildID
    let name: String
    let nickname: String?
    let birthDate: String
    let birthCalendar: CalendarKind
    let isLeapMonth: Bool
    let birthTime: String?
    let sex: Sex?
    let birthplace: String?
    let hospital: String?
    let residentNumber: String?
    /// The profile photo; its square crop is at `/children/{id}/photo`.
    let photoId: PhotoID?
    let createdAt: Date
    let modifiedAt: Date
    let derived: Derived

    struct Derived: Encodable {
        let solarBirthDate: String?
        let lunarBirthDate: LunarDateResource?
        let ageDays: Int?
        let ageMonths: Int?
        let ageYears: Int?
        let zodiacAnimal: ZodiacAnimal?
        let starSign: StarSign?
        let birthstone: Birthstone?
    }

    public init(_ child: Child, today: SolarDate) {
        let profile = child.profile
        id = child.id
        name = profile.name
        nickname = profile.nickname
        birthDate = profile.birthDate.iso
        birthCalendar = profile.birthDate.calendar
        isLeapMonth = profile.birthDate.isLeapMonth
        birthTime = profile.birthTime?.iso
        sex = profile.sex
        birthplace = profile.birthplace
        hospital = profile.hospital
        residentNumber = profile.residentNumber?.masked
        photoId = child.photoID
        createdAt = child.createdAt
        modifiedAt = child.modifiedAt
        let facts = ChildFacts(birthDate: profile.birthDate, today: today)
        derived = Derived(
            solarBirthDate: facts.solarBirthDate?.iso,
            lunarBirthDate: facts.lunarBirthDate.map(LunarDateResource.init),
            ageDays: facts.age?.days, ageMonths: facts.age?.months, ageYears: facts.age?.years,
            zodiacAnimal: facts.zodiacAnimal, starSign: facts.starSign, birthstone: facts.birthstone)
    }
}

/// `{"year": 2024, "month": 1, "day": 1, "isLeapMonth": false}`
public struct LunarDateResource: Encodable {
    let year: Int
    let month: Int
    let day: Int
    let isLeapMonth: Bool

    init(_ date: LunarDate) {
        year = date.year
        month = date.month
        day = date.day
        isLeapMonth = date.isLeapMonth
    }
}

extension ZodiacAnimal: Encodable {}
extension StarSign: Encodable {}
extension Birthstone: Encodable {}
