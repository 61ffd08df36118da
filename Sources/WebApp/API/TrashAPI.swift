import Diary
import Foundation
import HTTPTypes
import Hummingbird
import Persistence
import Services

/// `/api/v1/trash`: what the family deleted, until it is restored or purged (docs/trash.md). Owners and editors see
/// and restore everything; a viewer sees and restores what they deleted themselves (their comments). Only owners
/// purge, empty the trash or change how long it keeps things.
struct TrashAPI {
    let store: any TrashStore
    let photos: PhotoService
    let clock: Persistence.Clock

    /// The header a `DELETE` answers with when what it deleted went to the trash: the trash item's ID.
    static var trashItem: HTTPField.Name { HTTPField.Name("Trash-Item")! }

    /// A `DELETE`'s answer: 204 as always, naming the trash item the deleted thing became (which the family's activity
    /// records).
    static func deleted(_ item: TrashItem?, _ context: AppRequestContext) async -> Response {
        await context.record(deleted: item)
        var response = Response(status: .noContent)
        if let item { response.headers[trashItem] = item.id.description }
        return response
    }

    func register(on api: SecureRoutes) {
        let (store, photos, clock) = (store, photos, clock)
        @Sendable func visible(_ item: TrashItem, _ context: AppRequestContext) throws -> Bool {
            TrashRestorer.member(try context.member()).may(restore: item)
        }
        @Sendable func resource(_ item: TrashItem, _ family: FamilyID) async throws -> TrashItemResource {
            TrashItemResource(item, keepingDays: try await store.retention(family: family), now: clock.now())
        }
        api.get("trash", .viewer, statements: 11) { _, context in
            let family = try context.member().familyID
            let (all, days) = try await store.list(family: family)
            let items = try all.filter { try visible($0, context) }
            return try JSONBody.response(ListResponse(items: items.map { TrashItemResource($0, keepingDays: days, now: clock.now()) }, next: nil))
        }
        api.get("trash/settings", .viewer, statements: 8) { _, context in
            try JSONBody.response(TrashSettingsResource(days: try await store.retention(family: try context.member().familyID)))
        }
        api.put("trash/settings", .owner) { request, context in
            let family = try context.member().familyID
            let body = try await request.decode(as: TrashSettingsResource.self, context: context)
            try await store.setRetention(family: family, days: body.days)
            return try JSONBody.response(TrashSettingsResource(days: try await store.retention(family: family)))
        }
        api.get("trash/:id", .viewer, statements: 11) { _, context in
            let family = try context.member().familyID
            let item = try await store.get(family: family, id: try context.id(of: "trash item"))
            guard try visible(item, context) else { throw Problem(status: .notFound, detail: "no trash item with id \(item.id)") }
            return try JSONBody.response(try await resource(item, family))
        }
        api.post("trash/:id/restore", .member) { request, context in
            let family = try context.member().familyID
            let id: TrashID = try context.id(of: "trash item")
            let item = try await store.get(family: family, id: id)
            guard try visible(item, context) else { throw Problem(status: .notFound, detail: "no trash item with id \(id)") }
            // `withParent=true`: what the item belonged to first, when that is in the trash too.
            let withParent = try Query(request: request).bool("withParent") ?? false
            let restored = try await store.restore(family: family, id: id, withParent: withParent, as: .member(try context.member()))
            await context.record(.restored, trashed: restored.map(\.item))
            let days = try await store.retention(family: family)
            return try JSONBody.response(TrashRestoreResource(restored, keepingDays: days, now: clock.now()))
        }
        api.delete("trash/:id", .owner) { _, context in
            let family = try context.member().familyID
            let item = try await store.get(family: family, id: try context.id(of: "trash item"))
            await photos.release(try await store.purge(family: family, id: item.id))
            await context.record(.purged, trashed: [item])
            return Response(status: .noContent)
        }
        api.delete("trash", .owner) { _, context in
            await photos.release(try await store.empty(family: try context.member().familyID))
            await context.record(.purged, .trash, id: nil)
            return Response(status: .noContent)
        }
    }
}
