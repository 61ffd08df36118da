import Diary
import Foundation
import Hummingbird
import KoreanCalendar
import Services

/// `/album?child=…&month=YYYY-MM`: a month of one child's photos at a glance — every photo and clip of the month's
/// entries that name the child, oldest first, each with the child's age on the day it was taken, opening the entry's
/// viewer at that photo.
struct AlbumPage {
    let stores: WebStores

    /// What `album.mustache` shows.
    struct Model: PageModel {
        var noChildren = false
        var month = ""
        var monthIso = ""
        var photos: [Photo] = []
        var empty = false
        var childName = ""
        var children: [ChildChoice] = []
        var next = ""
        var previous: String?
    }

    /// A photo or clip of the month, opening its entry's viewer.
    struct Photo {
        let thumbnail: String
        let link: String
        let alt: String
        let day: String
        let age: String?
        let videoBadge: String?
    }

    func register(on pages: SecureRoutes) {
        pages.get("album", .viewer, statements: 19) { request, context in try await album(request, context) }
    }

    private func album(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let language = Language(request)
        let words = Words.table(language)
        let family = try context.member().familyID
        let query = Query(request: request)
        let children = try await stores.allChildren(family)
        let month = try query.string("month").map { try YearMonth(iso: $0) } ?? YearMonth(stores.today.date())
        guard let child = query.string("child").flatMap(ChildID.init).flatMap({ id in children.first { $0.id == id } }) ?? children.first
        else {
            return WebPage("album", title: words[.album], tab: .more, model: Model(noChildren: true)).response(request, context: context)
        }
        let entries = try await Page.all { cursor, limit in
            try await stores.entries.list(
                family: family, filter: TimelineFilter(childID: child.id, period: .month(month)), after: cursor, limit: limit)
        }.reversed()
        let ages = ChildAges(children)
        var items: [Photo] = []
        let photosOf = try await stores.photos.store.photos(family: family, entries: entries.map(\.id))
        for entry in entries {
            for (index, photo) in (photosOf[entry.id] ?? []).enumerated() {
                let day = photo.takenDay ?? entry.content.date.date
                items.append(
                    Photo(
                        thumbnail: PhotoLinks.thumbnail(photo.id), link: "/entries/\(entry.id)#photo-\(index + 1)",
                        alt: "\(entry.content.title) \(index + 1)",
                        day: day.year == month.year ? language.shortDate(day) : language.longDate(day),
                        age: ages.label(child.id, on: day, language: language), videoBadge: photo.video.map(PhotoLinks.badge)))
            }
        }
        let previous = (try? YearMonth(year: month.month == 1 ? month.year - 1 : month.year, month: month.month == 1 ? 12 : month.month - 1))
        let model = Model(
            month: language.monthTitle(year: month.year, month: month.month), monthIso: month.iso, photos: items, empty: items.isEmpty,
            childName: child.profile.name, children: children.map { ChildChoice($0, selected: $0.id == child.id) },
            next: "/album?child=\(child.id)&month=\(month.next.iso)", previous: previous.map { "/album?child=\(child.id)&month=\($0.iso)" })
        return WebPage("album", title: "\(child.profile.name) · \(words[.album])", tab: .more, model: model).response(request, context: context)
    }
}
