import Diary
import Foundation
import Hummingbird
import KoreanCalendar
import Persistence
import Photos
import Services

/// `/health?child=ID`: a child's vaccinations from the national schedule (overdue, due, upcoming, given) with
/// recording of doses, growth measurements with WHO percentiles and the chart, and hospital visits and other events.
struct HealthPages {
    let stores: WebStores

    func register(on pages: SecureRoutes) {
        pages.get("health", .viewer) { request, context in try await page(request, context: context, error: nil) }
        registerDeletion(on: pages)
        pages.post("health/:id/vaccinations", .editor) { request, context in
            try await change(request, context: context) { family, child in
                guard let product = context.form["product"].flatMap(VaccineProduct.init(rawValue:)) else {
                    throw ValidationError(field: "product", "is not a vaccine of the schedule")
                }
                let date = try Validate.field("date") { try SolarDate(iso: context.form["date"] ?? "") }
                _ = try await stores.vaccinations.record(
                    family: family,
                    try VaccinationShot(
                        childID: child.id, record: VaccinationRecord(product: product, date: date), place: context.form.text("place"),
                        lot: nil, productName: nil))
            }
        }
        pages.post("health/:id/measurements", .editor) { request, context in
            try await change(request, context: context) { family, child in
                guard let kind = context.form["kind"].flatMap(GrowthMeasurement.Kind.init(rawValue:)) else {
                    throw ValidationError(field: "kind", "must be height, weight or head")
                }
                guard let value = context.form.text("value").flatMap(Double.init) else { throw ValidationError(field: "value", .notANumber) }
                let date = try Validate.field("date") { try SolarDate(iso: context.form["date"] ?? "") }
                _ = try await stores.growth.add(
                    family: family,
                    try GrowthMeasurement(childID: child.id, kind: kind, value: value, unit: kind == .weight ? .kilograms : .centimetres, date: date))
            }
        }
        // Multipart: a visit may bring photos (a prescription, the hospital's note), checked before anything is saved.
        pages.post("health/:id/events", .editor) { request, context in
            let family = try context.member().familyID
            let child = try await stores.children.get(family: family, id: try context.id(of: "child"))
            let form = try await MultipartForm.read(request, service: stores.photos)
            do {
                let details = try Self.visit(form, child: child.id)
                let photos = try await ingest(form, family: family)
                _ = try await stores.events.create(family: family, details: details, photos: photos)
            } catch let error as ValidationError {
                form.uploads.forEach { $0.abandon() }
                return try await page(request, context: context, child: child.id, error: error.text(Language(request)))
            } catch let error as PhotoError {
                return try await page(request, context: context, child: child.id, error: error.text(Language(request)))
            }
            return AccountPages.redirect("/health?child=\(child.id)")
        }
        pages.get("health/events/:id/edit", .editor) { request, context in
            let event = try await stores.events.get(family: try context.member().familyID, id: try context.id(of: "event"))
            return editor(request, context: context, event: event, error: nil)
        }
        pages.post("health/events/:id/edit", .editor) { request, context in
            let family = try context.member().familyID
            let event = try await stores.events.get(family: family, id: try context.id(of: "event"))
            let form = try await MultipartForm.read(request, service: stores.photos)
            do {
                let details = try Self.visit(form, child: event.details.childID)
                let kept = (form.fields["photo"] ?? []).compactMap(PhotoID.init)
                let added = try await ingest(form, family: family)
                let (_, released) = try await stores.events.update(family: family, id: event.id, details: details, photos: kept + added)
                await stores.photos.release(released)
            } catch let error as ValidationError {
                form.uploads.forEach { $0.abandon() }
                return editor(request, context: context, event: event, error: error.text(Language(request)))
            } catch let error as PhotoError {
                return editor(request, context: context, event: event, error: error.text(Language(request)))
            }
            return AccountPages.redirect("/health?child=\(event.details.childID)")
        }
    }

    /// A visit's details from its form.
    static func visit(_ form: MultipartForm, child: ChildID) throws -> EventDetails {
        guard let kind = form.field("kind").flatMap(EventDetails.Kind.init(rawValue:)) else {
            throw ValidationError(field: "kind", "must be hospital, milestone or other")
        }
        let date = try Validate.field("date") { try SolarDate(iso: form.field("date") ?? "") }
        return try EventDetails(
            childID: child, kind: kind, title: form.field("title") ?? "", date: date, notes: form.field("notes")?.nonBlank,
            hospital: form.field("hospital")?.nonBlank, diagnosis: form.field("diagnosis")?.nonBlank)
    }

    /// The files a form brought, checked and stored (all or nothing).
    private func ingest(_ form: MultipartForm, family: FamilyID) async throws -> [PhotoID] {
        guard !form.uploads.isEmpty else { return [] }
        return try await stores.photos.ingest(form.uploads, family: family, entry: nil, now: stores.today.clock.now()).map(\.id)
    }

    /// What the visit form shows for an event (or, with none, today's blank visit).
    static func visitFields(_ event: Event?, today: SolarDate, words: Words) -> [String: Any] {
        guard let event else { return ["date": today.iso, "hospitalKind": true] }
        let details = event.details
        var fields: [String: Any] = [
            "date": details.date.iso, "title": details.title, "\(details.kind.rawValue)Kind": true,
            "photos": event.photoIDs.enumerated().map { index, photo in
                ["id": photo.description, "thumbnail": PhotoLinks.thumbnail(photo), "alt": "\(details.title) – \(words[.photo]) \(index + 1)"]
            },
        ]
        if let hospital = details.hospital { fields["hospital"] = hospital }
        if let diagnosis = details.diagnosis { fields["diagnosis"] = diagnosis }
        if let notes = details.notes { fields["notes"] = notes }
        return fields
    }

    private func editor(_ request: Request, context: AppRequestContext, event: Event, error: String?) -> Response {
        let words = Words.table(Language(request))
        var data: [String: Any] = [
            "visit": Self.visitFields(event, today: stores.today.date(), words: words),
            "action": "/health/events/\(event.id)/edit", "back": "/health?child=\(event.details.childID)",
        ]
        if let error { data["error"] = error }
        return WebPage("event-editor", title: words[.editEvent], tab: .more, data: data, status: error == nil ? .ok : .unprocessableContent)
            .response(request, context: context)
    }

    private func registerDeletion(on pages: SecureRoutes) {
        pages.get("health/events/:id/delete", .editor) { request, context in
            let event = try await stores.events.get(family: try context.member().familyID, id: try context.id(of: "event"))
            let words = Words.table(Language(request))
            let back = "/health?child=\(event.details.childID)"
            var consequences: [String] = []
            if !event.photoIDs.isEmpty { consequences.append("\(words[.photos]): \(event.photoIDs.count)") }
            return WebPage(
                "confirm-delete", title: words[.deleteEvent], tab: .more,
                data: ["name": event.details.title, "action": "/health/events/\(event.id)/delete", "back": back, "consequences": consequences]
            ).response(request, context: context)
        }
        pages.post("health/events/:id/delete", .editor) { _, context in
            let family = try context.member().familyID
            let event = try await stores.events.get(family: family, id: try context.id(of: "event"))
            await stores.photos.release(try await stores.events.delete(family: family, id: event.id))
            return AccountPages.redirect("/health?child=\(event.details.childID)")
        }
    }

    /// Runs a change for the child in the path, then shows the child's page again (with what was wrong, if anything).
    private func change(
        _ request: Request, context: AppRequestContext, _ body: (FamilyID, Child) async throws -> Void
    ) async throws -> Response {
        let family = try context.member().familyID
        let child = try await stores.children.get(family: family, id: try context.id(of: "child"))
        do {
            try await body(family, child)
        } catch let error as ValidationError {
            return try await page(request, context: context, child: child.id, error: error.text(Language(request)))
        }
        return AccountPages.redirect("/health?child=\(child.id)")
    }

    private func page(_ request: Request, context: AppRequestContext, child chosen: ChildID? = nil, error: String?) async throws -> Response {
        let language = Language(request)
        let words = Words.table(language)
        let family = try context.member().familyID
        let children = try await stores.allChildren(family)
        let asked = chosen ?? request.uri.queryParameters["child"].flatMap { ChildID(String($0)) }
        var data: [String: Any] = [
            "children": children.map { ["id": $0.id.description, "name": $0.profile.name, "current": $0.id == (asked ?? children.first?.id)] },
            "manyChildren": children.count > 1,
            "today": stores.today.date().iso,
            "visit": Self.visitFields(nil, today: stores.today.date(), words: words),
        ]
        if let error { data["error"] = error }
        guard let child = children.first(where: { $0.id == asked }) ?? children.first else {
            return WebPage("health", title: words[.health], tab: .more, data: data).response(request, context: context)
        }
        let today = stores.today.date()
        data["child"] = ["id": child.id.description, "name": child.profile.name]
        let recorded = try await stores.vaccinations.vaccinations(family: family, child: child.id)
        let name = { (vaccine: Vaccine) in language == .korean ? vaccine.koreanName : vaccine.englishName }
        let doses = VaccinationPlans.doses(for: child, recorded, on: today) ?? []
        func rows(_ status: PlannedDose.Status) -> [[String: Any]] {
            doses.filter { $0.status == status }.map { dose in
                var row: [String: Any] = [
                    "name": name(dose.vaccine), "dose": language == .korean ? "\(dose.number)차" : "dose \(dose.number)",
                    "window": "\(language.shortDate(dose.start)) – \(language.shortDate(dose.end))",
                ]
                if dose.start.year != today.year || dose.end.year != today.year {
                    row["window"] = "\(dose.start.iso) – \(dose.end.iso)"
                }
                if let given = dose.givenOn { row["given"] = language.longDate(given) }
                return row
            }
        }
        data["overdue"] = rows(.overdue)
        data["due"] = rows(.due)
        data["upcoming"] = Array(rows(.upcoming).prefix(8))
        data["given"] = rows(.given)
        data["products"] = VaccineProduct.allCases.map { product in
            ["value": product.rawValue, "name": product.components.map(name).joined(separator: " + ")]
        }
        let measurements = try await stores.growth.measurements(family: family, child: child.id)
        data["measurements"] = MeasurementResource.list(measurements, child: child).reversed().map { item in
            var row: [String: Any] = [
                "kind": words.named("growth_\(item.kind.rawValue)") ?? item.kind.rawValue,
                "value": "\(Self.number(item.value)) \(item.unit.rawValue)", "date": item.date,
            ]
            if let percentile = item.percentile { row["percentile"] = language == .korean ? "백분위 \(Self.number(percentile))" : "percentile \(Self.number(percentile))" }
            return row
        }
        data["chart"] = "/children/\(child.id)/growth.svg"
        data["hasMeasurements"] = !measurements.isEmpty
        let events = try await Page.all { try await stores.events.list(family: family, child: child.id, after: $0, limit: $1) }
        data["events"] = events.map { event in
            var row: [String: Any] = [
                "id": event.id.description, "title": event.details.title, "date": language.longDate(event.details.date),
                "kind": words.named("event_\(event.details.kind.rawValue)") ?? event.details.kind.rawValue,
            ]
            if let hospital = event.details.hospital { row["hospital"] = hospital }
            if let notes = event.details.notes { row["notes"] = notes }
            row["photos"] = event.photoIDs.enumerated().map { index, photo in
                [
                    "thumbnail": PhotoLinks.thumbnail(photo), "original": PhotoLinks.original(photo),
                    "alt": "\(event.details.title) – \(words[.photo]) \(index + 1)",
                ]
            }
            return row
        }
        return WebPage("health", title: "\(words[.health]) · \(child.profile.name)", tab: .more, data: data,
            status: error == nil ? .ok : .unprocessableContent).response(request, context: context)
    }

    static func number(_ value: Double) -> String {
        String(format: "%.1f", value).replacingOccurrences(of: ".0", with: "")
    }
}
