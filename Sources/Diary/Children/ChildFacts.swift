import KoreanCalendar

/// What Saessak derives from a child's birth date for a given day: never stored, always computed.
///
/// Facts that need the lunar↔solar conversion (the other calendar's birth date, and for a lunar-born child
/// everything counted from the solar date) stay nil until the KASI conversion table lands (issue 3).
public struct ChildFacts: Hashable, Sendable {
    public let solarBirthDate: SolarDate?
    public let lunarBirthDate: LunarDate?
    public let age: Age?
    /// 띠, by the lunar year of birth (the 설날 boundary).
    public let zodiacAnimal: ZodiacAnimal?
    public let starSign: StarSign?
    public let birthstone: Birthstone?

    public init(birthDate: BirthDate, today: SolarDate) {
        let solar: SolarDate?
        let lunar: LunarDate?
        switch birthDate {
        case .solar(let date): (solar, lunar) = (date, nil)
        case .lunar(let date): (solar, lunar) = (nil, date)
        }
        solarBirthDate = solar
        lunarBirthDate = lunar
        age = solar.flatMap { Age(born: $0, on: today) }
        zodiacAnimal = lunar.map { ZodiacAnimal(lunarYear: $0.year) }
        starSign = solar.map(StarSign.init)
        birthstone = solar.map(Birthstone.init)
    }
}
