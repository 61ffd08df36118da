import Diary
import Foundation
import KoreanCalendar
import Persistence

/// A child's vaccinations on the national schedule, planned for a day: what the API answers, the health page and
/// the calendar feed show, and `saessak vaccines` prints.
public enum VaccinationPlans {
    public struct PlanResponse: Encodable {
        public struct Schedule: Encodable {
            let version: String
            let source: String
        }

        public struct Dose: Encodable {
            public let vaccine: Vaccine
            public let number: Int
            public let start: String
            public let end: String
            public let status: PlannedDose.Status
            public let givenOn: String?
            /// For influenza: the year of the season's autumn.
            public let season: Int?
            public let pendingChoice: Vaccine.Choice?
        }

        public let schedule: Schedule
        public let date: String
        public let doses: [Dose]
        let shots: [ShotResource]
        let choices: [String: Vaccine]
    }

    public struct ShotResource: Encodable {
        let id: VaccinationID
        let product: VaccineProduct
        /// The vaccines this shot counts for.
        let vaccines: [Vaccine]
        let date: String
        let place: String?
        let lot: String?
        let productName: String?

        public init(_ shot: VaccinationShot) {
            id = shot.id
            product = shot.record.product
            vaccines = shot.record.product.components
            date = shot.record.date.iso
            place = shot.place
            lot = shot.lot
            productName = shot.productName
        }
    }


    /// The child's doses on a day, or nil for a birth date without a solar date in the supported range.
    public static func doses(for child: Child, _ recorded: ChildVaccinations, on day: SolarDate) -> [PlannedDose]? {
        guard let birth = ChildFacts(birthDate: child.profile.birthDate, today: day).solarBirthDate else { return nil }
        return VaccinationPlan.plan(
            birthDate: birth, sex: child.profile.sex, records: recorded.shots.map(\.record), choices: recorded.choices,
            skipped: recorded.skipped, today: day)
    }

    /// Every child of a family with their doses on a day: what notices and the calendar feed are made from.
    public static func children(
        family: FamilyID, on day: SolarDate, children: [Child], vaccinations: any VaccinationStore
    ) async throws -> [Notices.ChildInput] {
        let records = try await vaccinations.vaccinations(family: family, children: children.map(\.id))
        var inputs: [Notices.ChildInput] = []
        for child in children {
            guard let recorded = records[child.id], let plan = doses(for: child, recorded, on: day) else { continue }
            inputs.append(Notices.ChildInput(child: child, plan: plan))
        }
        return inputs
    }

    /// The plan of a child on a day: what the API answers and `saessak vaccines --json` prints.
    public static func plan(for child: Child, _ recorded: ChildVaccinations, on day: SolarDate) throws
        -> PlanResponse
    {
        guard let plan = doses(for: child, recorded, on: day) else {
            throw ValidationError(field: "birthDate", "the child's birth date has no solar date in the supported range")
        }
        let schedule = VaccinationSchedule.korea2023
        return PlanResponse(
            schedule: .init(version: schedule.version, source: schedule.source), date: day.iso,
            doses: plan.map {
                .init(vaccine: $0.vaccine, number: $0.number, start: $0.start.iso, end: $0.end.iso, status: $0.status,
                    givenOn: $0.givenOn?.iso, season: $0.season, pendingChoice: $0.pendingChoice)
            },
            shots: recorded.shots.map(ShotResource.init),
            choices: Dictionary(uniqueKeysWithValues: recorded.choices.map { ($0.key.rawValue, $0.value) }))
    }
}
