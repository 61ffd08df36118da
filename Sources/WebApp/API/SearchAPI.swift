import Diary
import Foundation
import Hummingbird
import KoreanCalendar
import Persistence
import Services

/// `GET /api/v1/search?q=…[&child=ID][&from=YYYY-MM-DD][&to=YYYY-MM-DD]`: the family's entries and memos that
/// match, best first, each with a passage whose matches are marked.
struct SearchAPI {
    let store: any SearchStore

    func register(on api: SecureRoutes) {
        api.get("search", .viewer, statements: 8) { [store] request, context in
            let family = try context.member().familyID
            let query = Query(request: request)
            // Everything here comes from the URL: what is wrong with it is a 400.
            do {
                let text = try SearchQuery(query.string("q") ?? "")
                let filter = try SearchFilter(
                    childID: try query.id("child"), from: try query.date("from"), to: try query.date("to"))
                let paging = try query.paging()
                let page = try await store.search(family: family, text, filter: filter, after: paging.cursor, limit: paging.limit)
                return try JSONBody.response(ListResponse(items: page.items.map(SearchHitResource.init), next: page.next?.description))
            } catch let error as ValidationError {
                throw Problem(status: .badRequest, detail: error.description, field: error.field)
            }
        }
    }
}
