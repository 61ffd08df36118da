import Diary
import Foundation
import Hummingbird
import KoreanCalendar
import Persistence
import Services

/// Calendar feeds: `POST/GET /api/v1/feeds`, `DELETE /api/v1/feeds/{id}` (members), the feed itself at its secret
/// URL `/feeds/{token}.ics` (the link is the credential), and a one-off download `GET /api/v1/calendar.ics`.
struct FeedsAPI {
    let sharing: any SharingStore
    let children: any ChildStore
    let anniversaries: any AnniversaryStore
    let events: any EventStore
    let vaccinations: any VaccinationStore
    let today: Today
    let clock: Clock

    struct Payload: Decodable {
        let label: String?
        let holidays: Bool?
    }

    struct FeedResource: Encodable {
        let id: CalendarFeedID
        let label: String?
        let holidays: Bool
        let createdAt: Date
        let url: String?

        init(_ feed: CalendarFeedLink, url: String? = nil) {
            id = feed.id
            label = feed.label
            holidays = feed.includesHolidays
            createdAt = feed.createdAt
            self.url = url
        }
    }

    func register(api: SecureRoutes, pages: SecureRoutes) {
        let feedsAPI = self
        api.post("feeds", .viewer) { [sharing] request, context in
            let payload = try await request.decode(as: Payload.self, context: context)
            let label = try Validate.optionalName(payload.label, field: "label", maxLength: EntryContent.maxTitleLength)
            let (token, feed) = try await sharing.makeFeed(by: try context.member(), label: label, includesHolidays: payload.holidays ?? false)
            return try JSONBody.response(FeedResource(feed, url: Links.absolute(request, "/feeds/\(token).ics")), status: .created)
        }
        api.get("feeds", .viewer, statements: 8) { [sharing] _, context in
            let feeds = try await sharing.feeds(family: try context.member().familyID)
            return try JSONBody.response(ListResponse(items: feeds.map { FeedResource($0) }, next: nil))
        }
        api.delete("feeds/:id", .viewer) { [sharing] _, context in
            try await sharing.revokeFeed(try context.id(of: "feed"), by: try context.member())
            return Response(status: .noContent)
        }
        api.get("calendar.ics", .viewer, statements: 31) { request, context in
            let holidays = Query(request: request).string("holidays") == "true"
            return try await feedsAPI.calendar(family: try context.member().familyID, name: "새싹", holidays: holidays, download: true)
        }
        pages.get("feeds/:token", .link, statements: 35) { [sharing] request, context in
            var token = context.parameters.get("token") ?? ""
            if token.hasSuffix(".ics") { token.removeLast(4) }
            guard let feed = try await sharing.openFeed(token: token) else { throw SharingPages.gone(request) }
            return try await feedsAPI.calendar(
                family: feed.familyID, name: feed.label ?? "새싹", holidays: feed.includesHolidays, download: false)
        }
    }

    func calendar(family: FamilyID, name: String, holidays: Bool, download: Bool) async throws -> Response {
        let day = today.date()
        let years = CalendarFeed.defaultYears(around: day)
        let inputs = try await VaccinationPlans.children(
            family: family, on: day, children: try await children.all(family: family), vaccinations: vaccinations)
        let remembered = try await Page.all { try await anniversaries.list(family: family, after: $0, limit: $1) }
        let visits = try await Page.all { try await events.list(family: family, after: $0, limit: $1) }
        let days = holidays ? years.flatMap { (try? KoreanHolidays.holidays(in: $0)) ?? [] } : []
        let feed = CalendarFeed.events(years: years, children: inputs, anniversaries: remembered, events: visits, holidays: days)
        let text = ICalendar.document(name: name, events: feed, stamp: clock.now())
        var headers: HTTPFields = [.contentType: "text/calendar; charset=utf-8", .cacheControl: "no-store"]
        if download { headers[.contentDisposition] = "attachment; filename=\"saessak.ics\"" }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
