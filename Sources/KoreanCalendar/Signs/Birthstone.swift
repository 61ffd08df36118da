/// The birthstone (탄생석) of a solar birth month.
public enum Birthstone: String, CaseIterable, Sendable {
    case garnet, amethyst, aquamarine, diamond, emerald, pearl, ruby, peridot, sapphire, opal, topaz, turquoise

    public init(_ date: SolarDate) {
        self = Birthstone.allCases[date.month - 1]
    }

    public var koreanName: String {
        switch self {
        case .garnet: "가넷"
        case .amethyst: "자수정"
        case .aquamarine: "아쿠아마린"
        case .diamond: "다이아몬드"
        case .emerald: "에메랄드"
        case .pearl: "진주"
        case .ruby: "루비"
        case .peridot: "페리도트"
        case .sapphire: "사파이어"
        case .opal: "오팔"
        case .topaz: "토파즈"
        case .turquoise: "터키석"
        }
    }
}
