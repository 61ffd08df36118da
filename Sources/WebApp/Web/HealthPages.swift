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
        pages.get("health", .viewer, statements: 25) { request, context in try await page(request, context: context, error: nil) }
        registerDeletion(on: pages)
        pages.post("health/:id/vaccinations", .editor) { request, context in
            try await change(request, context: context) { family, child in
                guard let product = context.form["product"].flatMap(VaccineProduct.init(rawValue:)) else {
                    throw ValidationError(field: "product", "is not a vaccine of the schedule")
                }
                let date = try Validate.field("date") { try SolarDate(iso: context.form["date"] ?? "") }
                let shot = try await stores.vaccinations.record(
                    family: family,
                    try VaccinationShot(
                        childID: child.id, record: VaccinationRecord(product: product, date: date), place: context.form.text("place"),
                        lot: nil, productName: nil))
                await context.record(.created, shot)
            }
        }
        pages.post("health/:id/measurements", .editor) { request, context in
            try await change(request, context: context) { family, child in
                guard let kind = context.form["kind"].flatMap(GrowthMeasurement.Kind.init(rawValue:)) else {
                    throw ValidationError(field: "kind", "must be height, weight or head")
                }
                guard let value = context.form.text("value").flatMap(Double.init) else { throw ValidationError(field: "value", .notANumber) }
                let date = try Validate.field("date") { try SolarDate(iso: context.form["date"] ?? "") }
                let measurement = try await stores.growth.add(
                    family: family,
                    try GrowthMeasurement(childID: child.id, kind: kind, value: value, unit: kind == .weight ? .kilograms : .centimetres, date: date))
                await context.record(.created, measurement)
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
                await context.record(.created, try await stores.events.create(family: family, details: details, photos: photos))
            } catch let error as ValidationError {
                form.uploads.forEach { $0.abandon() }
                return try await page(request, context: context, child: child.id, error: error.text(Language(request)))
            } catch let error as PhotoError {
                return try await page(request, context: context, child: child.id, error: error.text(Language(request)))
            }
            return AccountPages.redirect("/health?child=\(child.id)")
        }
        pages.get("health/events/:id/edit", .editor, statements: 9) { request, context in
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
                let (saved, released) = try await stores.events.update(family: family, id: event.id, details: details, photos: kept + added)
                await stores.photos.release(released)
                await context.record(.edited, saved)
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

    /// What the visit form (`event-fields.mustache`) shows for an event, or, with none, today's blank visit.
    struct VisitFields {
        let date: String
        var title: String?
        var hospitalKind = false
        var milestoneKind = false
        var otherKind = false
        var photos: [VisitPhoto] = []
        var hospital: String?
        var diagnosis: String?
        var notes: String?
    }

    struct VisitPhoto {
        let id: String
        let thumbnail: String
        let alt: String
    }

    static func visitFields(_ event: Event?, today: SolarDate, words: Words) -> VisitFields {
        guard let event else { return VisitFields(date: today.iso, hospitalKind: true) }
        let details = event.details
        return VisitFields(
            date: details.date.iso, title: details.title, hospitalKind: details.kind == .hospital, milestoneKind: details.kind == .milestone,
            otherKind: details.kind == .other,
            photos: event.photoIDs.enumerated().map { index, photo in
                VisitPhoto(id: photo.description, thumbnail: PhotoLinks.thumbnail(photo), alt: "\(details.title) – \(words[.photo]) \(index + 1)")
            },
            hospital: details.hospital, diagnosis: details.diagnosis, notes: details.notes)
    }

    /// What `event-editor.mustache` shows.
    struct EditorModel: PageModel {
        let visit: VisitFields
        let action: String
        let back: String
        let error: String?
    }

    /// What `health.mustache` shows: the children to choose from, then the chosen child's shots, growth and visits.
    struct Model: PageModel {
        let children: [ChildChoice]
        let manyChildren: Bool
        let today: String
        let visit: VisitFields
        let error: String?
        var child: ChildChoice?
        var overdue: [DoseRow] = []
        var due: [DoseRow] = []
        var upcoming: [DoseRow] = []
        var given: [DoseRow] = []
        var products: [Product] = []
        var measurements: [MeasurementRow] = []
        var chart: String?
        var hasMeasurements = false
        var events: [EventRow] = []
    }

    struct DoseRow {
        let name: String
        let dose: String
        let window: String
        let given: String?
    }

    struct Product {
        let value: String
        let name: String
    }

    struct MeasurementRow {
        let kind: String
        let value: String
        let date: String
        let percentile: String?
    }

    struct EventRow {
        let id: String
        let title: String
        let date: String
        let kind: String
        let hospital: String?
        let notes: String?
        let photos: [EventPhoto]
    }

    struct EventPhoto {
        let thumbnail: String
        let original: String
        let alt: String
    }

    private func editor(_ request: Request, context: AppRequestContext, event: Event, error: String?) -> Response {
        let words = Words.table(Language(request))
        let model = EditorModel(
            visit: Self.visitFields(event, today: stores.today.date(), words: words), action: "/health/events/\(event.id)/edit",
            back: "/health?child=\(event.details.childID)", error: error)
        return WebPage("event-editor", title: words[.editEvent], tab: .more, model: model, status: error == nil ? .ok : .unprocessableContent)
            .response(request, context: context)
    }

    private func registerDeletion(on pages: SecureRoutes) {
        // No confirmation: the visit goes to the trash, and the health page offers 실행 취소.
        pages.post("health/events/:id/delete", .editor) { request, context in
            let family = try context.member().familyID
            let event = try await stores.events.get(family: family, id: try context.id(of: "event"))
            let item = try await stores.events.delete(family: family, id: event.id, by: context.userID)
            return await TrashPages.deleted(item, then: "/health?child=\(event.details.childID)", request: request, context: context)
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
        var model = Model(
            children: children.map { ChildChoice($0, selected: $0.id == (asked ?? children.first?.id)) }, manyChildren: children.count > 1,
            today: stores.today.date().iso, visit: Self.visitFields(nil, today: stores.today.date(), words: words), error: error)
        guard let child = children.first(where: { $0.id == asked }) ?? children.first else {
            return WebPage("health", title: words[.health], tab: .more, model: model).response(request, context: context)
        }
        let today = stores.today.date()
        model.child = ChildChoice(child, selected: true)
        let recorded = try await stores.vaccinations.vaccinations(family: family, child: child.id)
        let name = { (vaccine: Vaccine) in language == .korean ? vaccine.koreanName : vaccine.englishName }
        let doses = VaccinationPlans.doses(for: child, recorded, on: today) ?? []
        func rows(_ status: PlannedDose.Status) -> [DoseRow] {
            doses.filter { $0.status == status }.map { dose in
                let sameYear = dose.start.year == today.year && dose.end.year == today.year
                return DoseRow(
                    name: name(dose.vaccine), dose: language == .korean ? "\(dose.number)차" : "dose \(dose.number)",
                    window: sameYear ? "\(language.shortDate(dose.start)) – \(language.shortDate(dose.end))" : "\(dose.start.iso) – \(dose.end.iso)",
                    given: dose.givenOn.map(language.longDate))
            }
        }
        model.overdue = rows(.overdue)
        model.due = rows(.due)
        model.upcoming = Array(rows(.upcoming).prefix(8))
        model.given = rows(.given)
        model.products = VaccineProduct.allCases.map { Product(value: $0.rawValue, name: $0.components.map(name).joined(separator: " + ")) }
        let measurements = try await stores.growth.measurements(family: family, child: child.id)
        model.measurements = MeasurementResource.list(measurements, child: child).reversed().map { item in
            MeasurementRow(
                kind: words.named("growth_\(item.kind.rawValue)") ?? item.kind.rawValue, value: "\(Self.number(item.value)) \(item.unit.rawValue)",
                date: item.date,
                percentile: item.percentile.map { language == .korean ? "백분위 \(Self.number($0))" : "percentile \(Self.number($0))" })
        }
        model.chart = "/children/\(child.id)/growth.svg"
        model.hasMeasurements = !measurements.isEmpty
        let events = try await Page.all { try await stores.events.list(family: family, child: child.id, after: $0, limit: $1) }
        model.events = events.map { event in
            EventRow(
                id: event.id.description, title: event.details.title, date: language.longDate(event.details.date),
                kind: words.named("event_\(event.details.kind.rawValue)") ?? event.details.kind.rawValue, hospital: event.details.hospital,
                notes: event.details.notes,
                photos: event.photoIDs.enumerated().map { index, photo in
                    EventPhoto(
                        thumbnail: PhotoLinks.thumbnail(photo), original: PhotoLinks.original(photo),
                        alt: "\(event.details.title) – \(words[.photo]) \(index + 1)")
                })
        }
        return WebPage("health", title: "\(words[.health]) · \(child.profile.name)", tab: .more, model: model,
            status: error == nil ? .ok : .unprocessableContent).response(request, context: context)
    }

    static func number(_ value: Double) -> String {
        String(format: "%.1f", value).replacingOccurrences(of: ".0", with: "")
    }
}
