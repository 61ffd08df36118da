import KoreanCalendar

/// A vaccine as the Korean national schedule names it.
public enum Vaccine: String, CaseIterable, Sendable, Codable {
    case bcg  // 결핵 (피내용)
    case hepB  // B형간염
    case dtap  // 디프테리아·파상풍·백일해
    case tdap  // Tdap/Td
    case ipv  // 폴리오
    case hib  // b형 헤모필루스 인플루엔자
    case pcv  // 폐렴구균
    case rv1  // 로타바이러스 (2회)
    case rv5  // 로타바이러스 (3회)
    case mmr  // 홍역·유행성이하선염·풍진
    case varicella  // 수두
    case hepA  // A형간염
    case ijev  // 일본뇌염 불활성화
    case ljev  // 일본뇌염 약독화 생백신
    case hpv  // 사람유두종바이러스
    case influenza  // 인플루엔자 (IIV), every autumn

    /// Alternatives a family chooses between, once per child.
    public enum Choice: String, CaseIterable, Sendable, Codable {
        case rotavirus  // RV1 or RV5
        case japaneseEncephalitis  // IJEV or LJEV

        public var options: [Vaccine] {
            switch self {
            case .rotavirus: [.rv1, .rv5]
            case .japaneseEncephalitis: [.ijev, .ljev]
            }
        }
    }

    public var choice: Choice? { Choice.allCases.first { $0.options.contains(self) } }
}

/// A product given in one shot; a combination counts as a dose of each of its components.
public enum VaccineProduct: String, CaseIterable, Sendable, Codable {
    case bcg, hepB, dtap, tdap, ipv, hib, pcv, rv1, rv5, mmr, varicella, hepA, ijev, ljev, hpv, influenza
    /// DTaP-IPV (테트락심 등).
    case dtapIpv
    /// DTaP-IPV/Hib (펜탁심 등).
    case dtapIpvHib

    public var components: [Vaccine] {
        switch self {
        case .dtapIpv: [.dtap, .ipv]
        case .dtapIpvHib: [.dtap, .ipv, .hib]
        default: [Vaccine(rawValue: rawValue)!]
        }
    }
}

/// An age or an interval: calendar months and years roll forward from a date (31 January + 1 month = 1 March), days
/// count days.
public struct AgeOffset: Hashable, Sendable {
    public let months: Int
    public let days: Int

    public static func months(_ months: Int) -> AgeOffset { AgeOffset(months: months, days: 0) }
    public static func years(_ years: Int) -> AgeOffset { AgeOffset(months: years * 12, days: 0) }
    public static func days(_ days: Int) -> AgeOffset { AgeOffset(months: 0, days: days) }

    public func after(_ date: SolarDate) -> SolarDate {
        let moved = date.addingMonthsRollingForward(months)
        return days == 0 ? moved : (try? moved.adding(days: days)) ?? moved
    }
}

/// When a dose is recommended: from `start` up to and including `end`, counted from birth or from the previous dose
/// of the same series.
public struct DoseWindow: Hashable, Sendable {
    public enum Origin: Hashable, Sendable {
        case birth
        /// The previous dose of the series: the day it was given, or if it was not, the first day it was due.
        case previousDose
    }

    public let origin: Origin
    public let start: AgeOffset
    /// Inclusive: the last day still on time.
    public let end: AgeOffset

    /// "At N months": due the day the child turns N months, overdue from the day they turn N + 1 months.
    public static func at(months: Int) -> DoseWindow { within(months: months, to: months) }

    /// "A–B months": from A months to the day before B + 1 months.
    public static func within(months from: Int, to: Int) -> DoseWindow {
        DoseWindow(origin: .birth, start: .months(from), end: AgeOffset(months: to + 1, days: -1))
    }

    /// "A–B years" (4–6세): from the A-th birthday to the day before the (B + 1)-th.
    public static func within(years from: Int, to: Int) -> DoseWindow {
        DoseWindow(origin: .birth, start: .years(from), end: AgeOffset(months: (to + 1) * 12, days: -1))
    }

    public static func afterPrevious(_ start: AgeOffset, to end: AgeOffset) -> DoseWindow {
        DoseWindow(origin: .previousDose, start: start, end: end)
    }
}

/// One dose of the schedule: the n-th of a vaccine's series.
public struct ScheduledDose: Hashable, Sendable {
    public let vaccine: Vaccine
    public let number: Int
    public let window: DoseWindow
    /// Only for children of one sex (HPV), and for boys only from a year on.
    public let onlyFor: Sex?

    init(_ vaccine: Vaccine, _ number: Int, _ window: DoseWindow, onlyFor: Sex? = nil) {
        self.vaccine = vaccine
        self.number = number
        self.window = window
        self.onlyFor = onlyFor
    }
}

/// The national schedule (표준예방접종일정표) as versioned data: a schedule change is a new value here, not new code.
public struct VaccinationSchedule: Sendable {
    public let version: String
    public let source: String
    public let doses: [ScheduledDose]
    /// HPV for boys: the year from which boys turning 12 are vaccinated.
    public let hpvForBoysFrom: Int
    /// Influenza: every autumn from 6 months to 13 years; the first season two doses four weeks apart under 9 years.
    public let influenza: SeasonalVaccination

    /// `../shared/spec/vaccination-kr.md`: KDCA notice 「예방접종의 실시기준 및 방법」 별표 1 (2023-03-06, 제2023-5호).
    /// Influenza (yearly, every autumn) is not in it yet.
    public static let korea2023 = VaccinationSchedule(
        version: "KR-2023-03-06",
        source: "질병관리청 고시 「예방접종의 실시기준 및 방법」 별표 1 (2023-03-06, 제2023-5호), 표준예방접종일정표",
        doses: [
            ScheduledDose(.bcg, 1, DoseWindow(origin: .birth, start: .days(0), end: .days(28))),
            ScheduledDose(.hepB, 1, .at(months: 0)),
            ScheduledDose(.hepB, 2, .at(months: 1)),
            ScheduledDose(.hepB, 3, .at(months: 6)),
            ScheduledDose(.dtap, 1, .at(months: 2)),
            ScheduledDose(.dtap, 2, .at(months: 4)),
            ScheduledDose(.dtap, 3, .at(months: 6)),
            ScheduledDose(.dtap, 4, .within(months: 15, to: 18)),
            ScheduledDose(.dtap, 5, .within(years: 4, to: 6)),
            ScheduledDose(.tdap, 1, .within(years: 11, to: 12)),
            ScheduledDose(.ipv, 1, .at(months: 2)),
            ScheduledDose(.ipv, 2, .at(months: 4)),
            ScheduledDose(.ipv, 3, .at(months: 6)),
            ScheduledDose(.ipv, 4, .within(years: 4, to: 6)),
            ScheduledDose(.hib, 1, .at(months: 2)),
            ScheduledDose(.hib, 2, .at(months: 4)),
            ScheduledDose(.hib, 3, .at(months: 6)),
            ScheduledDose(.hib, 4, .within(months: 12, to: 15)),
            ScheduledDose(.pcv, 1, .at(months: 2)),
            ScheduledDose(.pcv, 2, .at(months: 4)),
            ScheduledDose(.pcv, 3, .at(months: 6)),
            ScheduledDose(.pcv, 4, .within(months: 12, to: 15)),
            ScheduledDose(.rv1, 1, .at(months: 2)),
            ScheduledDose(.rv1, 2, .at(months: 4)),
            ScheduledDose(.rv5, 1, .at(months: 2)),
            ScheduledDose(.rv5, 2, .at(months: 4)),
            ScheduledDose(.rv5, 3, .at(months: 6)),
            ScheduledDose(.mmr, 1, .within(months: 12, to: 15)),
            ScheduledDose(.mmr, 2, .within(years: 4, to: 6)),
            ScheduledDose(.varicella, 1, .within(months: 12, to: 15)),
            ScheduledDose(.hepA, 1, .within(months: 12, to: 23)),
            ScheduledDose(.hepA, 2, .afterPrevious(.months(6), to: .months(18))),
            ScheduledDose(.ijev, 1, .within(months: 12, to: 23)),
            ScheduledDose(.ijev, 2, .afterPrevious(.days(7), to: .days(30))),
            ScheduledDose(.ijev, 3, .afterPrevious(.months(12), to: AgeOffset(months: 13, days: -1))),
            ScheduledDose(.ijev, 4, .within(years: 6, to: 6)),
            ScheduledDose(.ijev, 5, .within(years: 12, to: 12)),
            ScheduledDose(.ljev, 1, .within(months: 12, to: 23)),
            ScheduledDose(.ljev, 2, .afterPrevious(.months(12), to: AgeOffset(months: 13, days: -1))),
            ScheduledDose(.hpv, 1, .within(years: 12, to: 12)),
            ScheduledDose(.hpv, 2, .afterPrevious(.months(6), to: .months(12))),
        ],
        hpvForBoysFrom: 2026,
        influenza: SeasonalVaccination(
            vaccine: .influenza, seasonStart: (month: 10, day: 1), seasonEnd: (month: 4, day: 30), fromAge: .months(6),
            beforeAge: .years(13), twoDosesBeforeAge: .years(9), interval: .days(28)))
}

/// A vaccine given each season (influenza): the season runs from `seasonStart` in one year to `seasonEnd` in the next.
public struct SeasonalVaccination: Sendable {
    public let vaccine: Vaccine
    public let seasonStart: (month: Int, day: Int)
    public let seasonEnd: (month: Int, day: Int)
    /// From this age…
    public let fromAge: AgeOffset
    /// …to the day before this one.
    public let beforeAge: AgeOffset
    /// A child's first season brings two doses when it starts before this age.
    public let twoDosesBeforeAge: AgeOffset
    /// Between the two doses of a first season.
    public let interval: AgeOffset
}

extension Vaccine {
    /// The name on the national schedule (예방접종도우미), abbreviation first.
    public var koreanName: String {
        switch self {
        case .bcg: "BCG (결핵)"
        case .hepB: "HepB (B형간염)"
        case .dtap: "DTaP (디프테리아·파상풍·백일해)"
        case .tdap: "Tdap/Td (파상풍·디프테리아·백일해)"
        case .ipv: "IPV (폴리오)"
        case .hib: "Hib (b형 헤모필루스 인플루엔자)"
        case .pcv: "PCV (폐렴구균)"
        case .rv1: "RV1 (로타바이러스)"
        case .rv5: "RV5 (로타바이러스)"
        case .mmr: "MMR (홍역·유행성이하선염·풍진)"
        case .varicella: "VAR (수두)"
        case .hepA: "HepA (A형간염)"
        case .ijev: "IJEV (일본뇌염 불활성화)"
        case .ljev: "LJEV (일본뇌염 약독화 생백신)"
        case .hpv: "HPV (사람유두종바이러스)"
        case .influenza: "IIV (인플루엔자)"
        }
    }

    public var englishName: String {
        switch self {
        case .bcg: "BCG (tuberculosis)"
        case .hepB: "HepB (hepatitis B)"
        case .dtap: "DTaP (diphtheria, tetanus, pertussis)"
        case .tdap: "Tdap/Td (tetanus, diphtheria, pertussis)"
        case .ipv: "IPV (polio)"
        case .hib: "Hib (Haemophilus influenzae type b)"
        case .pcv: "PCV (pneumococcal)"
        case .rv1: "RV1 (rotavirus)"
        case .rv5: "RV5 (rotavirus)"
        case .mmr: "MMR (measles, mumps, rubella)"
        case .varicella: "VAR (chickenpox)"
        case .hepA: "HepA (hepatitis A)"
        case .ijev: "IJEV (Japanese encephalitis, inactivated)"
        case .ljev: "LJEV (Japanese encephalitis, live)"
        case .hpv: "HPV (human papillomavirus)"
        case .influenza: "IIV (influenza)"
        }
    }
}
