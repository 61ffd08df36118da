import Diary
import HTTPTypes
import Hummingbird
import Synchronization

/// Who may call a route. Every route declares one as it is registered (through `SecureRoutes`); the declarations
/// form the `AccessTable`, and a test enumerates the router's routes against it, so a route cannot be added without
/// saying who may use it.
public enum Access: String, Sendable, CaseIterable {
    /// No sign-in: health, the OpenAPI document.
    case anyone
    /// Any member of the family the request acts for (viewers included): reading the diary.
    case viewer
    /// Owners and editors: writing the diary, children, events.
    case editor
    /// Owners only: members, invitations, share links, the family itself.
    case owner

    /// The role a member needs, or nil when no sign-in is needed.
    var role: Role? {
        switch self {
        case .anyone: nil
        case .viewer: .viewer
        case .editor: .editor
        case .owner: .owner
        }
    }

    /// Throws 401 (nobody signed in) or 403 (a member whose role is not enough); a member of another family never
    /// gets this far with an ID of this one: the stores answer 404 for it.
    func check(_ context: AppRequestContext) throws {
        guard let required = role else { return }
        let membership = try context.member()
        guard membership.role.includes(required) else {
            throw Problem(status: .forbidden, detail: Self.refusal(membership.role, needs: required))
        }
    }

    private static func refusal(_ role: Role, needs required: Role) -> String {
        switch (role, required) {
        case (.viewer, _): "a viewer can read this family's diary but not change it"
        default: "only an owner of the family can do this"
        }
    }
}

/// Every route's declared access: method and path (as the router spells it) → `Access`.
public final class AccessTable: Sendable {
    public struct Route: Hashable, Sendable, CustomStringConvertible {
        public let method: HTTPRequest.Method
        public let path: String

        public var description: String { "\(method.rawValue) \(path)" }
    }

    private let declared = Mutex<[Route: Access]>([:])

    public var routes: [Route: Access] { declared.withLock { $0 } }

    func declare(_ method: HTTPRequest.Method, _ path: String, _ access: Access) {
        declared.withLock { table in
            let route = Route(method: method, path: RouterPath(path).description)
            precondition(table[route] == nil, "\(route) is declared twice")
            table[route] = access
        }
    }
}

/// Registers routes under a path prefix, each with the access it declares; the check runs before the handler.
struct SecureRoutes {
    let router: Router<AppRequestContext>
    let prefix: String
    let table: AccessTable

    func get<Output: ResponseGenerator>(
        _ path: String, _ access: Access,
        use handler: @escaping @Sendable (Request, AppRequestContext) async throws -> Output
    ) { on(.get, path, access, use: handler) }

    func post<Output: ResponseGenerator>(
        _ path: String, _ access: Access,
        use handler: @escaping @Sendable (Request, AppRequestContext) async throws -> Output
    ) { on(.post, path, access, use: handler) }

    func put<Output: ResponseGenerator>(
        _ path: String, _ access: Access,
        use handler: @escaping @Sendable (Request, AppRequestContext) async throws -> Output
    ) { on(.put, path, access, use: handler) }

    func delete<Output: ResponseGenerator>(
        _ path: String, _ access: Access,
        use handler: @escaping @Sendable (Request, AppRequestContext) async throws -> Output
    ) { on(.delete, path, access, use: handler) }

    private func on<Output: ResponseGenerator>(
        _ method: HTTPRequest.Method, _ path: String, _ access: Access,
        use handler: @escaping @Sendable (Request, AppRequestContext) async throws -> Output
    ) {
        let full = prefix.isEmpty ? path : "\(prefix)/\(path)"
        table.declare(method, full, access)
        router.on(RouterPath(full), method: method) { request, context in
            try access.check(context)
            return try await handler(request, context)
        }
    }
}
