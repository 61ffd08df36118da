import Diary
import Foundation
import Hummingbird
import KoreanCalendar
import Persistence
import Services

/// `/api/v1/children/{id}/measurements` and `/growth`: measurements with their WHO percentile and z-score.
struct GrowthAPI {
    let store: any GrowthStore
    let children: any ChildStore

    struct Payload: Decodable {
        let kind: GrowthMeasurement.Kind
        let value: Double
        /// cm for height and head; kg or g for weight (grams are converted).
        let unit: String
        let date: String
    }

    func register(on api: SecureRoutes) {
        api.get("children/:id/growth", .viewer, statements: 13) { [store, children] _, context in
            let family = try context.member().familyID
            let child = try await children.get(family: family, id: try context.id(of: "child"))
            let measurements = try await store.measurements(family: family, child: child.id)
            return try JSONBody.response(ListResponse(items: MeasurementResource.list(measurements, child: child), next: nil))
        }
        api.post("children/:id/measurements", .editor) { [store, children] request, context in
            let family = try context.member().familyID
            let child = try await children.get(family: family, id: try context.id(of: "child"))
            let payload = try await request.decode(as: Payload.self, context: context)
            var value = payload.value
            let unit: GrowthMeasurement.Unit
            switch (payload.kind, payload.unit) {
            case (.weight, "g"): (value, unit) = (payload.value / 1000, .kilograms)
            default:
                guard let known = GrowthMeasurement.Unit(rawValue: payload.unit) else {
                    throw ValidationError(field: "unit", "'\(payload.unit)' is not cm, kg or g")
                }
                unit = known
            }
            let date = try Validate.field("date") { try SolarDate(iso: payload.date) }
            let measurement = try GrowthMeasurement(childID: child.id, kind: payload.kind, value: value, unit: unit, date: date)
            let saved = try await store.add(family: family, measurement)
            await context.record(.created, saved)
            return try JSONBody.response(MeasurementResource.list([saved], child: child)[0], status: .created)
        }
        api.delete("children/:id/measurements/:measurement", .editor) { [store] _, context in
            let trashed = try await store.delete(
                family: try context.member().familyID, child: try context.id(of: "child"),
                id: try context.id("measurement", of: "measurement"), by: context.userID)
            return await TrashAPI.deleted(trashed, context)
        }
    }
}
