import Diary
import DiaryStore
import Foundation
import Hummingbird
import KoreanCalendar

/// `/api/v1/children/{id}/vaccinations`: the child's national-schedule plan on a day (default today in Seoul), the
/// shots recorded, and the family's choices. Reading is for every member; recording for owners and editors.
public struct VaccinationsAPI {
    let store: VaccinationStore
    let children: ChildStore
    let today: Today

    public struct PlanResponse: Encodable {
        struct Schedule: Encodable {
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

        let schedule: Schedule
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

        init(_ shot: VaccinationShot) {
            id = shot.id
            product = shot.record.product
            vaccines = shot.record.product.components
            date = shot.record.date.iso
            place = shot.place
            lot = shot.lot
            productName = shot.productName
        }
    }

    struct ShotPayload: Decodable {
        let product: VaccineProduct
        let date: String
        let place: String?
        let lot: String?
        let productName: String?
    }

    struct ChoicePayload: Decodable {
        let choice: Vaccine.Choice
        let vaccine: Vaccine?
    }

    struct SkipPayload: Decodable {
        let vaccine: Vaccine
        let number: Int
        let skipped: Bool
    }

    /// The child's doses on a day, or nil for a birth date without a solar date in the supported range.
    static func doses(for child: Child, _ recorded: VaccinationStore.ChildVaccinations, on day: SolarDate) -> [PlannedDose]? {
        guard let birth = ChildFacts(birthDate: child.profile.birthDate, today: day).solarBirthDate else { return nil }
        return VaccinationPlan.plan(
            birthDate: birth, sex: child.profile.sex, records: recorded.shots.map(\.record), choices: recorded.choices,
            skipped: recorded.skipped, today: day)
    }

    /// Every child of a family with their doses on a day: what notices and the calendar feed are made from.
    static func children(
        family: FamilyID, on day: SolarDate, children: ChildStore, vaccinations: VaccinationStore
    ) async throws -> [Notices.ChildInput] {
        var inputs: [Notices.ChildInput] = []
        for child in try await Page.all({ try await children.list(family: family, after: $0, limit: $1) }) {
            guard let plan = doses(for: child, try await vaccinations.vaccinations(family: family, child: child.id), on: day)
            else { continue }
            inputs.append(Notices.ChildInput(child: child, plan: plan))
        }
        return inputs
    }

    /// The plan of a child on a day: what the API answers and `saessak vaccines --json` prints.
    public static func plan(for child: Child, _ recorded: VaccinationStore.ChildVaccinations, on day: SolarDate) throws
        -> PlanResponse
    {
        guard let plan = doses(for: child, recorded, on: day) else {
            throw Problem(status: .unprocessableContent, detail: "the child's birth date has no solar date in the supported range")
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

    func register(on api: SecureRoutes) {
        api.get("children/:id/vaccinations", .viewer) { [store, children, today] request, context in
            let family = try context.member().familyID
            let child = try await children.get(family: family, id: try context.id(of: "child"))
            let day = try Query(request: request).date("date") ?? today.date()
            let recorded = try await store.vaccinations(family: family, child: child.id)
            return try JSONBody.response(try Self.plan(for: child, recorded, on: day))
        }
        api.post("children/:id/vaccinations", .editor) { [store] request, context in
            let family = try context.member().familyID
            let child: ChildID = try context.id(of: "child")
            let payload = try await JSONBody.decode(ShotPayload.self, from: request, context: context)
            let date = try Validate.field("date") { try SolarDate(iso: payload.date) }
            let shot = try VaccinationShot(
                childID: child, record: VaccinationRecord(product: payload.product, date: date), place: payload.place,
                lot: payload.lot, productName: payload.productName)
            return try JSONBody.response(ShotResource(try await store.record(family: family, shot)), status: .created)
        }
        api.delete("children/:id/vaccinations/:shot", .editor) { [store] _, context in
            try await store.delete(
                family: try context.member().familyID, child: try context.id(of: "child"),
                id: try context.id("shot", of: "vaccination"))
            return Response(status: .noContent)
        }
        api.put("children/:id/vaccinations/choices", .editor) { [store] request, context in
            let payload = try await JSONBody.decode(ChoicePayload.self, from: request, context: context)
            try await store.choose(family: try context.member().familyID, child: try context.id(of: "child"), payload.choice, payload.vaccine)
            return Response(status: .noContent)
        }
        api.put("children/:id/vaccinations/skips", .editor) { [store] request, context in
            let payload = try await JSONBody.decode(SkipPayload.self, from: request, context: context)
            guard VaccinationSchedule.korea2023.doses.contains(where: { $0.vaccine == payload.vaccine && $0.number == payload.number }) else {
                throw ValidationError(field: "number", "\(payload.vaccine.rawValue) has no dose \(payload.number) in the schedule")
            }
            try await store.setSkipped(
                family: try context.member().familyID, child: try context.id(of: "child"),
                DoseKey(vaccine: payload.vaccine, number: payload.number), payload.skipped)
            return Response(status: .noContent)
        }
    }
}
