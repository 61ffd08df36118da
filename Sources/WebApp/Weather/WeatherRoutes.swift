import Diary
import Foundation
import Hummingbird

/// Whether the family looks up its entries' weather: `GET|PUT /api/v1/family/weather` (reading: any member;
/// changing: an owner) and the settings page's switch (`POST /settings/weather`, owners).
struct WeatherRoutes {
    let store: any WeatherStore
    /// Where the weather is asked; its host is named wherever the switch is.
    let serviceURL: String

    struct Choice: Codable {
        let on: Bool
    }

    struct Resource: Encodable {
        let on: Bool
        /// The service asked (host only).
        let service: String
        /// What it is sent, in words.
        let sends: String
    }

    func register(api: SecureRoutes, pages: SecureRoutes) {
        api.get("family/weather", .viewer, statements: 8) { _, context in
            try JSONBody.response(resource(try await store.lookupIsOn(family: try context.member().familyID)))
        }
        api.put("family/weather", .owner) { request, context in
            let choice = try await request.decode(as: Choice.self, context: context)
            try await store.setLookup(choice.on, family: try context.member().familyID)
            return try JSONBody.response(resource(choice.on))
        }
        pages.post("settings/weather", .owner) { _, context in
            try await store.setLookup(context.form["on"] == "true", family: try context.member().familyID)
            return AccountPages.redirect("/settings?done=weather#s-weather")
        }
    }

    /// The host of the service, as the switch names it.
    static func host(_ serviceURL: String) -> String { URL(string: serviceURL)?.host ?? serviceURL }

    private func resource(_ on: Bool) -> Resource {
        Resource(
            on: on, service: Self.host(serviceURL),
            sends: "the date of each new entry that has coordinates and no weather (or of an entry given its first coordinates), "
                + "and its position rounded to 0.1° (about 10 km)")
    }
}
