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
