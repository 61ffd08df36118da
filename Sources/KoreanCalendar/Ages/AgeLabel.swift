/// A child's age at a moment, as a family album writes it under a photo: 생후 23일, 백일, 5개월, 돌, 28개월, 만 4세.
/// Never negative: before the birth there is no label.
public enum AgeLabel: Hashable, Sendable {
    /// Day N of life (the birth day is day 1), up to day 100.
    case day(Int)
    /// 백일: day 100.
    case baegil
    /// Full months, from day 101 to three years (the first birthday itself is `firstBirthday`).
    case months(Int)
    /// 돌: the first birthday (the lunar one for a child whose birthday is kept in the lunar calendar).
    case firstBirthday
    /// 만 나이, from three years on.
    case years(Int)

    /// The label on `date` for a child born on `birth` (solar; `lunarBirth` when the birthday is kept in the lunar
    /// calendar), or nil before the birth.
    public init?(born birth: SolarDate, lunarBirth: LunarDate? = nil, on date: SolarDate) {
        guard let age = Age(born: birth, on: date) else { return nil }
        if age.days == 100 {
            self = .baegil
        } else if age.days < 100 {
            self = .day(age.days)
        } else if let dol = try? Milestone.firstBirthday.date(born: birth, lunarBirth: lunarBirth), dol == date {
            self = .firstBirthday
        } else if age.months < 36 {
            self = .months(age.months)
        } else {
            self = .years(age.years)
        }
    }

    public var korean: String {
        switch self {
        case .day(let days): "생후 \(days)일"
        case .baegil: "백일"
        case .months(let months): "\(months)개월"
        case .firstBirthday: "돌"
        case .years(let years): "만 \(years)세"
        }
    }

    public var english: String {
        switch self {
        case .day(let days): "day \(days)"
        case .baegil: "100th day"
        case .months(let months): months == 1 ? "1 month" : "\(months) months"
        case .firstBirthday: "first birthday"
        case .years(let years): "age \(years)"
        }
    }
}
