import KoreanCalendar

/// A shot given: one product (a combination counts for each of its components) on a day.
public struct VaccinationRecord: Hashable, Sendable {
    public let product: VaccineProduct
    public let date: SolarDate

    public init(product: VaccineProduct, date: SolarDate) {
        self.product = product
        self.date = date
    }
}

/// A dose of one child's schedule, with its dates and where it stands.
public struct PlannedDose: Hashable, Sendable {
    public enum Status: String, Sendable, Codable {
        /// Its window has not opened yet.
        case upcoming
        /// Recommended now.
        case due
        /// Its window has closed without it.
        case overdue
        case given
        /// Marked as not to be given (a doctor's advice, given abroad without a record).
        case skipped
    }

    public let vaccine: Vaccine
    public let number: Int
    /// First and last recommended day.
    public let start: SolarDate
    public let end: SolarDate
    public let status: Status
    public let givenOn: SolarDate?
    /// For a seasonal vaccine: the year the season's autumn is in (2025 for 2025–26).
    public var season: Int? = nil
    /// Set while the family has not chosen between the alternatives this dose belongs to (RV1/RV5, IJEV/LJEV).
    public let pendingChoice: Vaccine.Choice?
}

/// One child's vaccinations: the schedule's doses with windows from the birth date (or the previous dose), matched
/// with the shots recorded.
public enum VaccinationPlan {
    /// - Parameters:
    ///   - choices: alternatives the family chose; a recorded shot of one alternative chooses it too.
    ///   - skipped: doses marked as not to be given.
    public static func plan(
        _ schedule: VaccinationSchedule = .korea2023, birthDate: SolarDate, sex: Sex?, records: [VaccinationRecord],
        choices: [Vaccine.Choice: Vaccine] = [:], skipped: Set<DoseKey> = [], today: SolarDate
    ) -> [PlannedDose] {
        // The days each vaccine was given, in order: the first is dose 1, and so on.
        var given: [Vaccine: [SolarDate]] = [:]
        for record in records.sorted(by: { $0.date < $1.date }) {
            for vaccine in record.product.components { given[vaccine, default: []].append(record.date) }
        }
        var chosen = choices
        for choice in Vaccine.Choice.allCases where chosen[choice] == nil {
            chosen[choice] = choice.options.first { given[$0] != nil }
        }

        // HPV: girls; boys who are still 12 in or after the year boys were added (not a child of unknown sex).
        let lastDayAged12 = AgeOffset(months: 13 * 12, days: -1).after(birthDate)
        let hpv = sex == .female || (sex == .male && lastDayAged12.year >= schedule.hpvForBoysFrom)

        var planned: [PlannedDose] = []
        var previousOrigin: [Vaccine: SolarDate] = [:]
        for dose in schedule.doses {
            if let choice = dose.vaccine.choice, let pick = chosen[choice], pick != dose.vaccine { continue }
            let origin: SolarDate
            switch dose.window.origin {
            case .birth: origin = birthDate
            case .previousDose: origin = previousOrigin[dose.vaccine] ?? birthDate
            }
            let start = dose.window.start.after(origin)
            let end = dose.window.end.after(origin)
            if dose.vaccine == .hpv, !hpv { continue }
            let givenOn = given[dose.vaccine].flatMap { $0.count >= dose.number ? $0[dose.number - 1] : nil }
            previousOrigin[dose.vaccine] = givenOn ?? start
            let status: PlannedDose.Status =
                if givenOn != nil { .given }
                else if skipped.contains(DoseKey(vaccine: dose.vaccine, number: dose.number)) { .skipped }
                else if today < start { .upcoming }
                else if today <= end { .due }
                else { .overdue }
            let pending = dose.vaccine.choice.flatMap { chosen[$0] == nil ? $0 : nil }
            planned.append(PlannedDose(
                vaccine: dose.vaccine, number: dose.number, start: start, end: end, status: status, givenOn: givenOn,
                pendingChoice: pending))
        }
        planned += seasonal(schedule.influenza, birthDate: birthDate, given: given[schedule.influenza.vaccine] ?? [], skipped: skipped, today: today)
        return planned
    }

    /// Seasonal doses, numbered on across seasons; a shot counts for the season its date falls in.
    static func seasonal(
        _ rule: SeasonalVaccination, birthDate: SolarDate, given: [SolarDate], skipped: Set<DoseKey>, today: SolarDate
    ) -> [PlannedDose] {
        let eligibleFrom = rule.fromAge.after(birthDate)
        let eligibleUntil = AgeOffset(months: rule.beforeAge.months, days: -1).after(birthDate)
        let twoDosesBefore = rule.twoDosesBeforeAge.after(birthDate)
        var planned: [PlannedDose] = []
        var number = 0
        var firstSeason = true
        for year in eligibleFrom.year - 1...eligibleUntil.year {
            guard let opens = try? SolarDate(year: year, month: rule.seasonStart.month, day: rule.seasonStart.day),
                let closes = try? SolarDate(year: year + 1, month: rule.seasonEnd.month, day: rule.seasonEnd.day)
            else { continue }
            let start = max(opens, eligibleFrom)
            let end = min(closes, eligibleUntil)
            guard start <= end else { continue }
            let shots = given.filter { $0 >= opens && $0 <= closes }
            let doses = firstSeason && start < twoDosesBefore ? 2 : 1
            firstSeason = false
            var origin = start
            for index in 0..<doses {
                number += 1
                let doseStart = index == 0 ? start : min(rule.interval.after(origin), end)
                let givenOn = index < shots.count ? shots[index] : nil
                origin = givenOn ?? doseStart
                let status: PlannedDose.Status =
                    if givenOn != nil { .given }
                    else if skipped.contains(DoseKey(vaccine: rule.vaccine, number: number)) { .skipped }
                    else if today < doseStart { .upcoming }
                    else if today <= end { .due }
                    else { .overdue }
                planned.append(PlannedDose(
                    vaccine: rule.vaccine, number: number, start: doseStart, end: end, status: status, givenOn: givenOn,
                    season: year, pendingChoice: nil))
            }
        }
        return planned
    }
}

/// Names a dose of the schedule: DTaP dose 4.
public struct DoseKey: Hashable, Sendable, Codable {
    public let vaccine: Vaccine
    public let number: Int

    public init(vaccine: Vaccine, number: Int) {
        self.vaccine = vaccine
        self.number = number
    }
}
