import KoreanCalendar

/// Something a family should hear about on a day: a child's milestone or birthday, an anniversary, a vaccination
/// due, a public holiday.
public struct Notice: Hashable, Sendable {
    public enum Kind: String, Sendable, Codable {
        case milestone, birthday, lunarBirthday, anniversary, vaccination, holiday
    }

    public let kind: Kind
    public let date: SolarDate
    /// 백일, 첫돌, 생일, the anniversary's or holiday's name, the vaccine.
    public let title: String
    public let childID: ChildID?
    /// For milestones: which one; for vaccinations: the dose.
    public let milestone: Milestone?
    public let dose: DoseKey?
    /// For birthdays: the age turned (만 나이).
    public let age: Int?
}

/// The notices for a family on a day and the `lookahead` days after it, in date order.
public enum Notices {
    public struct ChildInput: Sendable {
        public let child: Child
        /// The child's vaccination plan (its due and overdue doses become notices).
        public let plan: [PlannedDose]

        public init(child: Child, plan: [PlannedDose]) {
            self.child = child
            self.plan = plan
        }
    }

    public static func on(
        _ day: SolarDate, lookahead: Int, children: [ChildInput], anniversaries: [Anniversary], holidays: [Holiday]
    ) -> [Notice] {
        guard let last = try? day.adding(days: lookahead) else { return [] }
        let range = day...last
        var notices: [Notice] = []
        for input in children {
            let child = input.child
            let facts = ChildFacts(birthDate: child.profile.birthDate, today: day)
            guard let birth = facts.solarBirthDate else { continue }
            let lunarBirth: LunarDate? = child.profile.birthDate.calendar == .lunar ? facts.lunarBirthDate : nil
            for milestone in Milestone.allCases {
                if let date = try? milestone.date(born: birth, lunarBirth: lunarBirth), range.contains(date) {
                    notices.append(Notice(
                        kind: .milestone, date: date, title: milestone.koreanName, childID: child.id, milestone: milestone,
                        dose: nil, age: nil))
                }
            }
            // Birthdays from the second on (the first is 첫돌), in the solar calendar, and in the lunar one for a
            // child whose birth date was given in it.
            for year in Set([day.year, last.year]) where year > birth.year + 1 {
                let date = Birthday.solar(birth, in: year)
                if range.contains(date), lunarBirth == nil {
                    notices.append(Notice(kind: .birthday, date: date, title: "생일", childID: child.id, milestone: nil, dose: nil, age: year - birth.year))
                }
            }
            if let lunarBirth {
                for year in Set([day.year - 1, day.year, last.year]) where year > lunarBirth.year + 1 {
                    if let date = try? Birthday.lunar(lunarBirth, inLunarYear: year), range.contains(date) {
                        notices.append(Notice(
                            kind: .lunarBirthday, date: date, title: "음력 생일", childID: child.id, milestone: nil, dose: nil,
                            age: year - lunarBirth.year))
                    }
                }
            }
            for dose in input.plan where dose.status == .due || dose.status == .overdue || (dose.status == .upcoming && range.contains(dose.start)) {
                notices.append(Notice(
                    kind: .vaccination, date: max(dose.start, day), title: "\(dose.vaccine.rawValue) \(dose.number)",
                    childID: child.id, milestone: nil, dose: DoseKey(vaccine: dose.vaccine, number: dose.number), age: nil))
            }
        }
        for anniversary in anniversaries {
            for date in occurrences(anniversary.details, around: day, last: last) where range.contains(date) {
                notices.append(Notice(
                    kind: .anniversary, date: date, title: anniversary.details.name, childID: anniversary.details.childID,
                    milestone: nil, dose: nil, age: nil))
            }
        }
        for holiday in holidays where range.contains(holiday.date) {
            notices.append(Notice(kind: .holiday, date: holiday.date, title: holiday.name, childID: nil, milestone: nil, dose: nil, age: nil))
        }
        // By date, then kind, then title; the later keys read only on a tie (a tuple of all three, made for every
        // comparison, compared Korean titles each time: 3 % of a busy month page).
        return notices.sorted { left, right in
            if left.date != right.date { return left.date < right.date }
            if left.kind != right.kind { return left.kind.rawValue < right.kind.rawValue }
            return left.title < right.title
        }
    }

    /// An anniversary's solar dates in the years around a span. Solar: 29 February falls on 28 February in common
    /// years. Lunar: in the leap month when the anniversary is a leap-month day and that year has the leap month,
    /// otherwise the ordinary month; day 30 becomes 29 in a short month.
    public static func occurrences(_ details: AnniversaryDetails, around day: SolarDate, last: SolarDate) -> [SolarDate] {
        switch details.calendar {
        case .solar:
            return Set([day.year, last.year]).compactMap { year in
                let length = SolarDate.daysInMonth(year: year, month: details.month)
                return try? SolarDate(year: year, month: details.month, day: min(details.day, length))
            }
        case .lunar:
            return Set([day.year - 1, day.year, last.year]).compactMap { year in
                let leap = details.isLeapMonth && (try? KoreanLunarCalendar.leapMonth(in: year)) == details.month
                guard let length = try? KoreanLunarCalendar.daysInMonth(year: year, month: details.month, isLeapMonth: leap),
                    let lunar = try? LunarDate(year: year, month: details.month, day: min(details.day, length), isLeapMonth: leap)
                else { return nil }
                return try? SolarDate.from(lunar)
            }
        }
    }
}
