import KoreanCalendar

/// What Saessak derives from a child's birth date for a given day: never stored, always computed.
///
/// The other calendar's birth date comes from the KASI-derived table; facts that need it are nil for a birth
/// outside that table's range (solar 1391-02-05 … 2050-12-31).
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
        solar = birthDate.solarDate
        switch birthDate {
        case .solar(let date): lunar = try? LunarDate.from(date)
        case .lunar(let date): lunar = date
        }
        solarBirthDate = solar
        lunarBirthDate = lunar
        age = solar.flatMap { Age(born: $0, on: today) }
        zodiacAnimal = lunar.map { ZodiacAnimal(lunarYear: $0.year) }
        starSign = solar.map(StarSign.init)
        birthstone = solar.map(Birthstone.init)
    }
}
