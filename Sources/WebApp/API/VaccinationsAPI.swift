import Diary
import Foundation
import Hummingbird
import KoreanCalendar
import Persistence
import Services

/// `/api/v1/children/{id}/vaccinations`: the child's national-schedule plan on a day (default today in Seoul), the
/// shots recorded, and the family's choices. Reading is for every member; recording for owners and editors.
struct VaccinationsAPI {
    let store: any VaccinationStore
    let children: any ChildStore
    let today: Today

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

    func register(on api: SecureRoutes) {
        api.get("children/:id/vaccinations", .viewer, statements: 15) { [store, children, today] request, context in
            let family = try context.member().familyID
            let child = try await children.get(family: family, id: try context.id(of: "child"))
            let day = try Query(request: request).date("date") ?? today.date()
            let recorded = try await store.vaccinations(family: family, child: child.id)
            return try JSONBody.response(try VaccinationPlans.plan(for: child, recorded, on: day))
        }
        api.post("children/:id/vaccinations", .editor) { [store] request, context in
            let family = try context.member().familyID
            let child: ChildID = try context.id(of: "child")
            let payload = try await request.decode(as: ShotPayload.self, context: context)
            let date = try Validate.field("date") { try SolarDate(iso: payload.date) }
            let shot = try VaccinationShot(
                childID: child, record: VaccinationRecord(product: payload.product, date: date), place: payload.place,
                lot: payload.lot, productName: payload.productName)
            let saved = try await store.record(family: family, shot)
            await context.record(.created, saved)
            return try JSONBody.response(VaccinationPlans.ShotResource(saved), status: .created)
        }
        api.delete("children/:id/vaccinations/:shot", .editor) { [store] _, context in
            let trashed = try await store.delete(
                family: try context.member().familyID, child: try context.id(of: "child"),
                id: try context.id("shot", of: "vaccination"), by: context.userID)
            return await TrashAPI.deleted(trashed, context)
        }
        api.put("children/:id/vaccinations/choices", .editor) { [store] request, context in
            let payload = try await request.decode(as: ChoicePayload.self, context: context)
            let child: ChildID = try context.id(of: "child")
            try await store.choose(family: try context.member().familyID, child: child, payload.choice, payload.vaccine)
            await context.record(.edited, .vaccination, id: child.description, detail: "choice")
            return Response(status: .noContent)
        }
        api.put("children/:id/vaccinations/skips", .editor) { [store] request, context in
            let payload = try await request.decode(as: SkipPayload.self, context: context)
            guard VaccinationSchedule.korea2023.doses.contains(where: { $0.vaccine == payload.vaccine && $0.number == payload.number }) else {
                throw ValidationError(field: "number", "\(payload.vaccine.rawValue) has no dose \(payload.number) in the schedule")
            }
            let child: ChildID = try context.id(of: "child")
            try await store.setSkipped(
                family: try context.member().familyID, child: child, DoseKey(vaccine: payload.vaccine, number: payload.number), payload.skipped)
            await context.record(.edited, .vaccination, id: child.description, detail: "skip")
            return Response(status: .noContent)
        }
    }
}
