import Diary
import Foundation
import Persistence
import Services
import Hummingbird
import KoreanCalendar

/// `/api/v1/entries` and the month-sectioned `/api/v1/timeline`. Each entry carries its children's ages on its day.
struct EntriesAPI {
    let store: any EntryStore
    let children: any ChildStore
    let photos: PhotoService

    /// An entry and its family's children, for the ages of those it names.
    struct AgedEntry: Sendable {
        let entry: Entry
        let children: [ChildID: Child]

        var resource: EntryResource { EntryResource(entry, children: children) }
    }

    var routes: CollectionRoutes<Entry, AgedEntry, EntryPayload, EntryResource> {
        let (store, children, photos) = (store, children, photos)
        @Sendable func aged(_ family: FamilyID, _ entry: Entry) async throws -> AgedEntry {
            AgedEntry(entry: entry, children: try await children.byID(family: family))
        }
        @Sendable func replace(_ family: FamilyID, _ user: UserID?, _ id: EntryID, _ payload: EntryPayload, _ version: Int64?) async throws
            -> AgedEntry
        {
            let first = try await payload.firstPhoto(family: family, photos: photos.store)
            let (entry, released) = try await store.update(
                family: family, id: id, content: try payload.content(first: first), photos: payload.photoIds, expecting: version, by: user)
            await photos.release(released)
            return try await aged(family, entry)
        }
        /// A new entry by `author` (the asker), at most once per `key` when one is given.
        @Sendable func make(_ family: FamilyID, _ author: UserID?, _ payload: EntryPayload, _ key: String?) async throws
            -> (item: AgedEntry, replayed: Bool)
        {
            let first = try await payload.firstPhoto(family: family, photos: photos.store)
            let content = try payload.content(first: first)
            guard let key else {
                let entry = try await store.create(family: family, content: content, photos: payload.photoIds ?? [], author: author)
                return (try await aged(family, entry), false)
            }
            let (entry, replayed) = try await store.create(
                family: family, content: content, photos: payload.photoIds ?? [], author: author, idempotencyKey: key)
            return (try await aged(family, entry), replayed)
        }
        return CollectionRoutes(
            path: "entries", statements: (list: 15, item: 15),
            list: { family, query in
                let paging = try query.paging()
                let page = try await store.list(family: family, filter: try query.timelineFilter(), after: paging.cursor, limit: paging.limit)
                let births = try await children.byID(family: family)
                return Page(items: page.items.map { AgedEntry(entry: $0, children: births) }, next: page.next)
            },
            get: { family, id in try await aged(family, try await store.get(family: family, id: id)) },
            create: { family, payload in try await make(family, nil, payload, nil).item },
            update: { family, user, id, payload in try await replace(family, user, id, payload, nil) },
            delete: { family, user, id in try await store.delete(family: family, id: id, by: user) },
            resource: \.resource,
            createOnce: make,
            version: \.entry.version,
            updateIfMatch: replace)
    }

    /// `GET /entries/{id}/versions`: what edits replaced, newest first; `POST …/versions/{number}/restore` makes one
    /// the entry again (itself an edit, which keeps the version it replaces).
    func registerVersions(on group: SecureRoutes) {
        // Editors' and owners' (issue 66: a resident number taken out of the text stayed readable to viewers).
        group.get("entries/:id/versions", .editor, statements: 10) { [store] _, context in
            let versions = try await store.versions(family: try context.member().familyID, id: try context.id(of: "entry"))
            return try JSONBody.response(ListResponse(items: versions.map(EntryVersionResource.init), next: nil))
        }
        // Owners delete one for good (issue 66: a resident number typed into the text stayed in its versions for a year).
        group.delete("entries/:id/versions/:number", .owner) { [store, photos] _, context in
            guard let number = context.parameters.get("number").flatMap({ Int($0) }), number >= 1 else {
                throw Problem(status: .notFound, detail: "no such version: give its number, 1 or more")
            }
            await photos.release(try await store.purgeVersion(family: try context.member().familyID, id: try context.id(of: "entry"), number: number))
            return Response(status: .noContent)
        }
        group.post("entries/:id/versions/:number/restore", .editor) { [store, children, photos] _, context in
            let family = try context.member().familyID
            guard let number = context.parameters.get("number").flatMap({ Int($0) }), number >= 1 else {
                throw Problem(status: .notFound, detail: "no such version: give its number, 1 or more")
            }
            let (entry, released) = try await store.restoreVersion(
                family: family, id: try context.id(of: "entry"), number: number, by: context.userID)
            await photos.release(released)
            await context.record(.restored, entry, detail: "version \(number)")
            return try JSONBody.response(EntryResource(entry, children: try await children.byID(family: family)))
        }
    }

    /// `GET /api/v1/timeline`: the same entries and filters as the list, grouped by month, newest first.
    func registerTimeline(on group: SecureRoutes) {
        group.get("timeline", .viewer, statements: 15) { [store, children] request, context in
            let query = Query(request: request)
            let paging = try query.paging()
            let family = try context.member().familyID
            let (sections, next) = try await store.timeline(
                family: family, filter: try query.timelineFilter(), after: paging.cursor, limit: paging.limit)
            let births = try await children.byID(family: family)
            return try JSONBody.response(
                TimelineResponse(
                    sections: sections.map { .init(month: $0.month.iso, items: $0.items.map { EntryResource($0, children: births) }) },
                    next: next?.description))
        }
    }

    /// `GET /api/v1/on-this-day?date=YYYY-MM-DD&lunar=true`: entries of earlier years on the same day (default:
    /// today in Seoul), by the solar calendar and, with `lunar=true`, also by the lunar one.
    func registerOnThisDay(on group: SecureRoutes, today: Today) {
        group.get("on-this-day", .viewer, statements: 15) { [store, children] request, context in
            let query = Query(request: request)
            let date = try query.date("date") ?? today.date()
            let lunar = query.string("lunar")
            guard lunar == nil || lunar == "true" || lunar == "false" else {
                throw Problem(status: .badRequest, detail: "lunar: must be true or false", field: "lunar")
            }
            let family = try context.member().familyID
            let entries = try await store.onThisDay(family: family, OnThisDay(date: date, includeLunar: lunar == "true"))
            let births = try await children.byID(family: family)
            return try JSONBody.response(ListResponse(items: entries.map { EntryResource($0, children: births) }, next: nil))
        }
    }
}

/// What a client sends to create or replace an entry. `photoIds` (uploaded with `POST /photos`) sets the photos
/// in order; left out on a replace, the photos stay. Without `date` or `place`, the first photo's EXIF gives them.
struct EntryPayload: Decodable {
    let title: String
    let body: String?
    let date: String?
    let timeZone: String?
    let childIds: [ChildID]
    let tags: [String]?
    let place: PlaceBody?
    let weather: String?
    let photoIds: [PhotoID]?

    func firstPhoto(family: FamilyID, photos: any PhotoStore) async throws -> Photo? {
        guard date == nil || place == nil, let first = photoIds?.first else { return nil }
        do { return try await photos.get(family: family, id: first) } catch StoreError.notFound {
            throw StoreError.unknownReference(field: "photoIds", id: first.description)
        }
    }

    func content(first photo: Photo?) throws -> EntryContent {
        guard let text = date ?? photo?.takenLocal.map({ String($0.prefix(16)) }) else {
            throw ValidationError(field: "date", photoIds?.isEmpty == false
                ? "is required: the first photo carries no date" : "is required")
        }
        let date = try Validate.field("date") { try LocalDateTime(iso: text) }
        var place = try self.place.map { try Place(name: $0.name, latitude: $0.latitude, longitude: $0.longitude) }
        if self.place == nil, let latitude = photo?.latitude, let longitude = photo?.longitude {
            place = try Place(name: nil, latitude: latitude, longitude: longitude)
        }
        return try EntryContent(
            title: title, body: body ?? "", date: date, timeZone: timeZone ?? EntryContent.defaultTimeZone,
            childIDs: childIds, tags: tags ?? [], place: place, weather: weather)
    }
}

