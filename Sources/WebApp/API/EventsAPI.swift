import Diary
import Foundation
import Persistence
import Services
import KoreanCalendar

/// `/api/v1/events`: one-off events of a child, newest first; `?child=ID` narrows to one child. `photoIds` (uploaded
/// with `POST /photos`) are kept with the event in order (a prescription); left out on a replace, they stay.
struct EventsAPI {
    let store: any EventStore
    let photos: PhotoService

    var routes: CollectionRoutes<Event, Event, EventPayload, EventResource> {
        let (store, photos) = (store, photos)
        return CollectionRoutes(
            path: "events", statements: (list: 9, item: 9),
            list: { family, query in
                let paging = try query.paging()
                return try await store.list(family: family, child: try query.id("child"), after: paging.cursor, limit: paging.limit)
            },
            get: { family, id in try await store.get(family: family, id: id) },
            create: { family, payload in
                try await store.create(family: family, details: try payload.details(), photos: payload.photoIds ?? [])
            },
            update: { family, _, id, payload in
                let (event, released) = try await store.update(
                    family: family, id: id, details: try payload.details(), photos: payload.photoIds)
                await photos.release(released)
                return event
            },
            delete: { family, user, id in try await store.delete(family: family, id: id, by: user) },
            resource: EventResource.init)
    }
}

struct EventPayload: Decodable {
    let childId: ChildID
    let kind: EventDetails.Kind?
    let title: String
    let date: String
    let time: String?
    let notes: String?
    let hospital: String?
    let doctor: String?
    let diagnosis: String?
    let photoIds: [PhotoID]?

    func details() throws -> EventDetails {
        let date = try Validate.field("date") { try SolarDate(iso: self.date) }
        let time = try Validate.field("time") { try self.time.map { try ClockTime(iso: $0) } }
        return try EventDetails(
            childID: childId, kind: kind ?? .other, title: title, date: date, time: time, notes: notes, hospital: hospital,
            doctor: doctor, diagnosis: diagnosis)
    }
}

struct EventResource: Encodable {
    let id: EventID
    let childId: ChildID
    let kind: EventDetails.Kind
    let title: String
    let date: String
    let time: String?
    let notes: String?
    let hospital: String?
    let doctor: String?
    let diagnosis: String?
    let photoIds: [PhotoID]
    let createdAt: Date
    let modifiedAt: Date

    init(_ event: Event) {
        let details = event.details
        id = event.id
        childId = details.childID
        kind = details.kind
        title = details.title
        date = details.date.iso
        time = details.time?.iso
        notes = details.notes
        hospital = details.hospital
        doctor = details.doctor
        diagnosis = details.diagnosis
        photoIds = event.photoIDs
        createdAt = event.createdAt
        modifiedAt = event.modifiedAt
    }
}
