import Diary
import HTTPTypes
import Hummingbird
import Services

/// The five routes every collection of the API has, written once:
/// `GET /name` (paged list), `POST /name` (201), `GET /name/{id}`, `PUT /name/{id}` (whole replacement),
/// `DELETE /name/{id}` (204; for what the trash keeps, its trash item in `Trash-Item`). Reads are for any member of the family (`Access.viewer`); writes for owners and editors,
/// each in the family's activity record.
struct CollectionRoutes<Owner, Item: Sendable & ActivitySubject, Payload: Decodable, Resource: Encodable>: Sendable {
    /// The path segment and the word used in errors: `children`, `child`.
    let path: String
    let list: @Sendable (FamilyID, Query) async throws -> Page<Item>
    let get: @Sendable (FamilyID, Identifier<Owner>) async throws -> Item
    let create: @Sendable (FamilyID, Payload) async throws -> Item
    /// Replaces by the asker.
    let update: @Sendable (FamilyID, UserID?, Identifier<Owner>, Payload) async throws -> Item
    /// Deletes by the asker; returns the trash item it became, for the kinds the trash keeps.
    let delete: @Sendable (FamilyID, UserID?, Identifier<Owner>) async throws -> TrashItem?
    let resource: @Sendable (Item) -> Resource
    /// `create` by the asker (entries keep their author), at most once per `Idempotency-Key` when one is given
    /// (entries: drafts written offline are sent again until an answer arrives); nil where neither means anything.
    var createOnce: (@Sendable (FamilyID, UserID?, Payload, String?) async throws -> (item: Item, replayed: Bool))?
    /// The item's version, sent as its `ETag`; a `PUT` with `If-Match` then goes to `updateIfMatch`, which writes
    /// only while the stored item is still that version (entries: an edit made offline never overwrites silently).
    var version: (@Sendable (Item) -> Int64)?
    var updateIfMatch: (@Sendable (FamilyID, UserID?, Identifier<Owner>, Payload, Int64) async throws -> Item)?
    /// The statement budgets of the list and of one item (`SecureRoutes.get(_:_:statements:)`).
    let statements: (list: Int, item: Int)

    init(
        path: String, statements: (list: Int, item: Int), list: @escaping @Sendable (FamilyID, Query) async throws -> Page<Item>,
        get: @escaping @Sendable (FamilyID, Identifier<Owner>) async throws -> Item,
        create: @escaping @Sendable (FamilyID, Payload) async throws -> Item,
        update: @escaping @Sendable (FamilyID, UserID?, Identifier<Owner>, Payload) async throws -> Item,
        delete: @escaping @Sendable (FamilyID, UserID?, Identifier<Owner>) async throws -> TrashItem?, resource: @escaping @Sendable (Item) -> Resource,
        createOnce: (@Sendable (FamilyID, UserID?, Payload, String?) async throws -> (item: Item, replayed: Bool))? = nil,
        version: (@Sendable (Item) -> Int64)? = nil,
        updateIfMatch: (@Sendable (FamilyID, UserID?, Identifier<Owner>, Payload, Int64) async throws -> Item)? = nil
    ) {
        self.path = path
        self.statements = statements
        self.list = list
        self.get = get
        self.create = create
        self.update = update
        self.delete = delete
        self.resource = resource
        self.createOnce = createOnce
        self.version = version
        self.updateIfMatch = updateIfMatch
    }

    static var idempotencyKey: HTTPField.Name { HTTPField.Name("Idempotency-Key")! }
    static var replayed: HTTPField.Name { HTTPField.Name("Idempotent-Replayed")! }

    /// The request's `Idempotency-Key`: 1–200 visible ASCII characters (a UUID, as a rule), or a 400 naming it.
    static func key(_ request: Request) throws -> String? {
        guard let key = request.headers[idempotencyKey] else { return nil }
        guard (1...200).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw Problem(status: .badRequest, detail: "Idempotency-Key: 1–200 visible ASCII characters, such as a UUID", field: "Idempotency-Key")
        }
        return key
    }

    /// `If-Match: "1764000000123"` (one strong ETag of ours): the version it names; a 400 for anything else
    /// (`*` and lists mean nothing for a single entry being edited).
    static func ifMatch(_ request: Request) throws -> Int64? {
        guard let value = request.headers[.ifMatch] else { return nil }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.count >= 3, trimmed.hasPrefix("\""), trimmed.hasSuffix("\""), let version = Int64(trimmed.dropFirst().dropLast()),
            version >= 0
        else {
            throw Problem(status: .badRequest, detail: "If-Match: give the ETag of the version you edited, such as \"1764000000123\"", field: "If-Match")
        }
        return version
    }

    /// The item as JSON, with its ETag when it has versions.
    private func response(_ item: Item, status: HTTPResponse.Status = .ok) throws -> Response {
        var response = try JSONBody.response(resource(item), status: status)
        if let version { response.headers[.eTag] = "\"\(version(item))\"" }
        return response
    }

    func register(on group: SecureRoutes) {
        group.get(path, .viewer, statements: statements.list) { request, context in
            let page = try await list(try context.member().familyID, Query(request: request))
            return try JSONBody.response(ListResponse(items: page.items.map(resource), next: page.next?.description))
        }
        group.post(path, .editor) { request, context in
            let family = try context.member().familyID
            let payload = try await request.decode(as: Payload.self, context: context)
            if let createOnce {
                let (item, replayed) = try await createOnce(family, context.userID, payload, try Self.key(request))
                var response = try response(item, status: .created)
                if replayed { response.headers[Self.replayed] = "true" } else { await context.record(.created, item) }
                return response
            }
            let item = try await create(family, payload)
            await context.record(.created, item)
            return try response(item, status: .created)
        }
        group.get("\(path)/:id", .viewer, statements: statements.item) { _, context in
            let family = try context.member().familyID
            return try response(try await get(family, try context.id(of: path)))
        }
        group.put("\(path)/:id", .editor) { request, context in
            let family = try context.member().familyID
            let id: Identifier<Owner> = try context.id(of: path)
            let expected = updateIfMatch == nil ? nil : try Self.ifMatch(request)
            let payload = try await request.decode(as: Payload.self, context: context)
            let item = if let updateIfMatch, let expected {
                try await updateIfMatch(family, context.userID, id, payload, expected)
            } else {
                try await update(family, context.userID, id, payload)
            }
            await context.record(.edited, item)
            return try response(item)
        }
        group.delete("\(path)/:id", .editor) { _, context in
            let family = try context.member().familyID
            let trashed = try await delete(family, context.userID, try context.id(of: path))
            return await TrashAPI.deleted(trashed, context)
        }
    }
}
