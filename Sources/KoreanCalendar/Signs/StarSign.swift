/// The Western zodiac sign (별자리) of a solar birth date; the date ranges are inclusive.
public enum StarSign: String, CaseIterable, Sendable {
    case aries, taurus, gemini, cancer, leo, virgo, libra, scorpio, sagittarius, capricorn, aquarius, pisces

    public init(_ date: SolarDate) {
        // The first day of each sign, in calendar order from 1 January.
        let starts: [(month: Int, day: Int, sign: StarSign)] = [
            (1, 20, .aquarius), (2, 19, .pisces), (3, 21, .aries), (4, 20, .taurus), (5, 21, .gemini),
            (6, 22, .cancer), (7, 23, .leo), (8, 23, .virgo), (9, 23, .libra), (10, 24, .scorpio),
            (11, 22, .sagittarius), (12, 22, .capricorn),
        ]
        self = starts.last { ($0.month, $0.day) <= (date.month, date.day) }?.sign ?? .capricorn
    }

    public var koreanName: String {
        switch self {
        case .aries: "양자리"
        case .taurus: "황소자리"
        case .gemini: "쌍둥이자리"
        case .cancer: "게자리"
        case .leo: "사자자리"
        case .virgo: "처녀자리"
        case .libra: "천칭자리"
        case .scorpio: "전갈자리"
        case .sagittarius: "궁수자리"
        case .capricorn: "염소자리"
        case .aquarius: "물병자리"
        case .pisces: "물고기자리"
        }
    }
}
