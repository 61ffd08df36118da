import Diary
import Hummingbird
import Services

/// The five routes every collection of the API has, written once:
/// `GET /name` (paged list), `POST /name` (201), `GET /name/{id}`, `PUT /name/{id}` (whole replacement),
/// `DELETE /name/{id}` (204). Reads are for any member of the family (`Access.viewer`); writes for owners and editors.
struct CollectionRoutes<Owner, Item: Sendable, Payload: Decodable, Resource: Encodable>: Sendable {
    /// The path segment and the word used in errors: `children`, `child`.
    let path: String
    let list: @Sendable (FamilyID, Query) async throws -> Page<Item>
    let get: @Sendable (FamilyID, Identifier<Owner>) async throws -> Item
    let create: @Sendable (FamilyID, Payload) async throws -> Item
    let update: @Sendable (FamilyID, Identifier<Owner>, Payload) async throws -> Item
    let delete: @Sendable (FamilyID, Identifier<Owner>) async throws -> Void
    let resource: @Sendable (Item) -> Resource

    func register(on group: SecureRoutes) {
        group.get(path, .viewer) { request, context in
            let page = try await list(try context.member().familyID, Query(request: request))
            return try JSONBody.response(ListResponse(items: page.items.map(resource), next: page.next?.description))
        }
        group.post(path, .editor) { request, context in
            let family = try context.member().familyID
            let payload = try await request.decode(as: Payload.self, context: context)
            return try JSONBody.response(resource(try await create(family, payload)), status: .created)
        }
        group.get("\(path)/:id", .viewer) { _, context in
            let family = try context.member().familyID
            return try JSONBody.response(resource(try await get(family, try context.id(of: path))))
        }
        group.put("\(path)/:id", .editor) { request, context in
            let family = try context.member().familyID
            let id: Identifier<Owner> = try context.id(of: path)
            let payload = try await request.decode(as: Payload.self, context: context)
            return try JSONBody.response(resource(try await update(family, id, payload)))
        }
        group.delete("\(path)/:id", .editor) { _, context in
            let family = try context.member().familyID
            try await delete(family, try context.id(of: path))
            return Response(status: .noContent)
        }
    }
}
