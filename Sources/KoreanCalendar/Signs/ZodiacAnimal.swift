/// The animal of the year (띠), the earthly branch of the sexagenary year, in order from 자 (rat).
public enum ZodiacAnimal: String, CaseIterable, Sendable {
    case rat, ox, tiger, rabbit, dragon, snake, horse, goat, monkey, rooster, dog, pig

    /// The animal of lunar year `year` (the 설날 boundary): 1984 was 갑자, a rat year.
    public init(lunarYear year: Int) {
        self = ZodiacAnimal.allCases[((year + 8) % 12 + 12) % 12]
    }

    public var koreanName: String {
        switch self {
        case .rat: "쥐"
        case .ox: "소"
        case .tiger: "호랑이"
        case .rabbit: "토끼"
        case .dragon: "용"
        case .snake: "뱀"
        case .horse: "말"
        case .goat: "양"
        case .monkey: "원숭이"
        case .rooster: "닭"
        case .dog: "개"
        case .pig: "돼지"
        }
    }
}
