import Diary
import Foundation
import Hummingbird
import Services

/// `/api/v1/activity`: the family's record of who did what, newest first (docs/trash.md). Owners see every member's
/// and may filter by `member` (a username); every other member sees their own. Filters: `kind`, `month` (`2026-11`).
///
/// `/api/v1/members`: who belongs to the family; owners change a member's role or take them out (never the last
/// owner), and both go into the record.
struct ActivityAPI {
    let store: any ActivityStore
    let accounts: any AccountStore

    struct ActivityResource: Encodable {
        let id: ActivityID
        let at: Date
        let actor: String?
        let action: ActivityAction
        let kind: ActivityKind
        let subjectId: String?
        let label: String
        let detail: String

        init(_ line: Activity) {
            id = line.id
            at = line.at
            actor = line.actorName
            action = line.action
            kind = line.kind
            subjectId = line.subjectID
            label = line.label
            detail = line.detail
        }
    }

    struct MemberResource: Encodable {
        let username: String
        let role: Role
    }

    struct RolePayload: Decodable {
        let role: Role
    }

    /// The filter a request asks for, as far as the asker may see: an owner anyone's, others their own.
    static func filter(_ query: Query, context: AppRequestContext) throws -> ActivityFilter {
        let member = try context.member()
        var filter = ActivityFilter()
        if let kind = query.string("kind") {
            guard let known = ActivityKind(rawValue: kind) else {
                throw Problem(status: .badRequest, detail: "kind: '\(kind.prefix(40))' is not a kind the record knows", field: "kind")
            }
            filter.kind = known
        }
        if let month = query.string("month") {
            do { filter.month = try ActivityMonth(month) } catch { throw Problem(status: .badRequest, detail: error.description, field: "month") }
        }
        if let name = query.string("member"), !name.isEmpty {
            guard member.role == .owner else {
                throw Problem(status: .forbidden, detail: "only an owner sees what other members did", field: "member")
            }
            filter.actorName = name
        }
        if member.role != .owner { filter.actor = member.userID }
        return filter
    }

    func register(on api: SecureRoutes) {
        let (store, accounts) = (store, accounts)
        api.get("activity", .viewer, statements: 8) { request, context in
            let query = Query(request: request)
            let filter = try Self.filter(query, context: context)
            let paging = try query.paging()
            let page = try await store.list(family: try context.member().familyID, filter: filter, after: paging.cursor, limit: paging.limit)
            return try JSONBody.response(ListResponse(items: page.items.map(ActivityResource.init), next: page.next?.description))
        }
        api.get("members", .viewer, statements: 8) { _, context in
            let members = try await accounts.members(family: try context.member().familyID)
            return try JSONBody.response(ListResponse(items: members.map { MemberResource(username: $0.username, role: $0.role) }, next: nil))
        }
        api.put("members/:username", .owner) { request, context in
            let family = try context.member().familyID
            let username = context.username()
            let body = try await request.decode(as: RolePayload.self, context: context)
            _ = try await accounts.setRole(family: family, username: username, role: body.role, by: context.userID)
            let member = try await accounts.members(family: family).first { $0.username.lowercased() == username.lowercased() }
            return try JSONBody.response(MemberResource(username: member?.username ?? username, role: member?.role ?? body.role))
        }
        api.delete("members/:username", .owner) { _, context in
            try await accounts.removeMember(family: try context.member().familyID, username: context.username(), by: context.userID)
            return Response(status: .noContent)
        }
    }
}
