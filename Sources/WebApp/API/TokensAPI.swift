import Diary
import Foundation
import Hummingbird
import Persistence
import Services

/// `/api/v1/tokens`: the caller's own API tokens in the family. A token is shown once, when it is made; revoking
/// one stops it at once. Any member may make tokens, never with more than their own role.
struct TokensAPI {
    let accounts: any AccountStore

    struct Payload: Decodable {
        let name: String
        let role: Role?
    }

    struct TokenResource: Encodable {
        let id: APITokenID
        let name: String
        let role: Role?
        let createdAt: Date
        /// Only in the answer that made it.
        let token: String?

        init(_ record: APIToken, token: String? = nil) {
            id = record.id
            name = record.name
            role = record.role
            createdAt = record.createdAt
            self.token = token
        }
    }

    func register(on api: SecureRoutes) {
        api.get("tokens", .viewer, statements: 8) { [accounts] _, context in
            let tokens = try await accounts.tokens(of: try context.member())
            return try JSONBody.response(ListResponse(items: tokens.map { TokenResource($0) }, next: nil))
        }
        api.post("tokens", .viewer) { [accounts] request, context in
            let payload = try await request.decode(as: Payload.self, context: context)
            let (token, record) = try await accounts.createToken(for: try context.member(), name: payload.name, role: payload.role)
            await context.record(.created, record, detail: record.role?.rawValue ?? "")
            return try JSONBody.response(TokenResource(record, token: token), status: .created)
        }
        api.delete("tokens/:id", .viewer) { [accounts] _, context in
            let id: APITokenID = try context.id(of: "token")
            try await accounts.revokeToken(id, by: try context.member())
            await context.record(.revoked, .token, id: id.description)
            return Response(status: .noContent)
        }
    }
}
