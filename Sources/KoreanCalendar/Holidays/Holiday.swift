/// A public holiday (공휴일) on a date, with its Korean and English name.
public struct Holiday: Hashable, Sendable {
    public let date: SolarDate
    public let name: String
    public let nameEn: String
    public let kind: Kind

    public enum Kind: String, Sendable {
        /// A holiday of the solar calendar (삼일절, 광복절…).
        case solar
        /// A holiday of the lunar calendar (설날, 부처님오신날, 추석).
        case lunar
        /// 대체공휴일: the weekday that stands in for a holiday lost to a weekend or to another holiday.
        case substitute
        /// An election day or a one-off designated day (임시공휴일), from the dated list.
        case designated
    }

    public var isSubstitute: Bool { kind == .substitute }

    public init(date: SolarDate, name: String, nameEn: String, kind: Kind) {
        self.date = date
        self.name = name
        self.nameEn = nameEn
        self.kind = kind
    }
}

/// Choices the law has not settled, as switches. Each release states its defaults in docs/calendar.md.
public struct HolidayRules: Hashable, Sendable {
    /// 노동절 (5/1, formerly 근로자의 날) as a public holiday from this year on; nil: not a public holiday.
    /// Its status from 2026 is reported but not settled; this release counts it from 2026.
    public var laborDayFrom: Int?

    public init(laborDayFrom: Int? = 2026) { self.laborDayFrom = laborDayFrom }

    public static let current = HolidayRules()
}
