import Diary
import Hummingbird

/// Per-request state: who is asking, once authentication has said so.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by `BearerAuthMiddleware` for every `/api/v1` route that needs it.
    public var membership: Membership?

    public init(source: Source) {
        coreContext = .init(source: source)
        membership = nil
    }

    /// JSON request bodies are small: text only (photos arrive by their own streamed route).
    public var maxUploadSize: Int { 1024 * 1024 }

    /// The membership of an authenticated request; routes behind the auth middleware can rely on it.
    func member() throws -> Membership {
        guard let membership else { throw Problem.unauthorized }
        return membership
    }

    /// The membership, if it may change the family's data (owners and editors; viewers only read).
    func writer() throws -> Membership {
        let membership = try member()
        guard membership.role.canWrite else {
            throw Problem(status: .forbidden, detail: "a viewer can read this family's diary but not change it")
        }
        return membership
    }

    /// The ID in path parameter `name`. One that is not even a UUID names nothing: 404, like an unknown one.
    func id<Owner>(_ name: String = "id", of kind: String) throws -> Identifier<Owner> {
        let text = parameters.get(name) ?? ""
        guard let id = Identifier<Owner>(text) else { throw Problem(status: .notFound, detail: "no \(kind) with id \(text)") }
        return id
    }
}
