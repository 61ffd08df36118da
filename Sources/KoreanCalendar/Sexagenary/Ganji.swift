/// A term of the sexagenary cycle (간지, 干支): a heavenly stem and an earthly branch, 60 combinations.
public struct Ganji: Hashable, Sendable, CustomStringConvertible {
    /// 0…59; 0 is 갑자 (甲子).
    public let index: Int

    public init(index: Int) { self.index = ((index % 60) + 60) % 60 }

    /// 0…9: 갑을병정무기경신임계
    public var stem: Int { index % 10 }
    /// 0…11: 자축인묘진사오미신유술해
    public var branch: Int { index % 12 }

    public static let stems = ["갑", "을", "병", "정", "무", "기", "경", "신", "임", "계"]
    public static let branches = ["자", "축", "인", "묘", "진", "사", "오", "미", "신", "유", "술", "해"]
    public static let stemsHanja = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬", "癸"]
    public static let branchesHanja = ["子", "丑", "寅", "卯", "辰", "巳", "午", "未", "申", "酉", "戌", "亥"]

    /// 갑진
    public var korean: String { Ganji.stems[stem] + Ganji.branches[branch] }
    /// 甲辰
    public var hanja: String { Ganji.stemsHanja[stem] + Ganji.branchesHanja[branch] }
    public var description: String { korean }

    init(stem: Int, branch: Int) {
        // The index i with i ≡ stem (mod 10) and i ≡ branch (mod 12); stem and branch share parity.
        self.init(index: (6 * stem - 5 * branch + 60) % 60)
    }

    /// The year's 간지 of a lunar year: 1984 was 갑자.
    public static func year(_ lunarYear: Int) -> Ganji { Ganji(index: lunarYear - 1984) }

    /// The month's 간지 (月建) of a lunar month. Month 1 is always 인월; its stem follows the year stem
    /// (갑·기 years start at 병인, 을·경 at 무인, 병·신 at 경인, 정·임 at 임인, 무·계 at 갑인).
    /// A leap month takes the 간지 of its ordinary month.
    public static func month(lunarYear: Int, month: Int) -> Ganji {
        let firstStem = (year(lunarYear).stem % 5 * 2 + 2) % 10
        return Ganji(stem: (firstStem + month - 1) % 10, branch: (month + 1) % 12)
    }

    /// The day's 간지: a continuous 60-day cycle; 2000-01-01 was 무오일 (戊午).
    public static func day(_ date: SolarDate) -> Ganji { Ganji(index: date.julianDayNumber - 2_451_545 + 54) }

    /// The three 간지 of a lunar date: year, month, day.
    public static func of(_ lunar: LunarDate, solar: SolarDate) -> (year: Ganji, month: Ganji, day: Ganji) {
        (year(lunar.year), month(lunarYear: lunar.year, month: lunar.month), day(solar))
    }
}

/// 단기 (檀紀): the Dangun era year of a lunar year.
public enum Dangi {
    public static func year(lunarYear: Int) -> Int { lunarYear + 2333 }
}
