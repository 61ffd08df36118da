import Diary
import Foundation
import Persistence

/// `/api/v1/anniversaries`: yearly days on a solar or lunar month/day, in month/day order.
struct AnniversariesAPI {
    let store: any AnniversaryStore

    var routes: CollectionRoutes<Anniversary, Anniversary, AnniversaryPayload, AnniversaryResource> {
        let store = store
        return CollectionRoutes(
            path: "anniversaries", statements: (list: 8, item: 8),
            list: { family, query in
                let paging = try query.paging()
                return try await store.list(family: family, after: paging.cursor, limit: paging.limit)
            },
            get: { family, id in try await store.get(family: family, id: id) },
            create: { family, payload in try await store.create(family: family, details: try payload.details()) },
            update: { family, _, id, payload in try await store.update(family: family, id: id, details: try payload.details()) },
            delete: { family, user, id in try await store.delete(family: family, id: id, by: user) },
            resource: AnniversaryResource.init)
    }
}

struct AnniversaryPayload: Decodable {
    let name: String
    let calendar: CalendarKind?
    // Read as numbers and checked here, so 1.5 is refused naming its field.
    let month: Double
    let day: Double
    let isLeapMonth: Bool?
    let isHoliday: Bool?
    let childId: ChildID?

    func details() throws -> AnniversaryDetails {
        guard let month = Int(exactly: month) else { throw ValidationError(field: "month", "must be a whole number") }
        guard let day = Int(exactly: day) else { throw ValidationError(field: "day", "must be a whole number") }
        return try AnniversaryDetails(
            name: name, calendar: calendar ?? .solar, month: month, day: day, isLeapMonth: isLeapMonth ?? false,
            isHoliday: isHoliday ?? false, childID: childId)
    }
}

struct AnniversaryResource: Encodable {
    let id: AnniversaryID
    let name: String
    let calendar: CalendarKind
    let month: Int
    let day: Int
    let isLeapMonth: Bool
    let isHoliday: Bool
    let childId: ChildID?
    let createdAt: Date
    let modifiedAt: Date

    init(_ anniversary: Anniversary) {
        let details = anniversary.details
        id = anniversary.id
        name = details.name
        calendar = details.calendar
        month = details.month
        day = details.day
        isLeapMonth = details.isLeapMonth
        isHoliday = details.isHoliday
        childId = details.childID
        createdAt = anniversary.createdAt
        modifiedAt = anniversary.modifiedAt
    }
}
