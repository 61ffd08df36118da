import Diary
import Hummingbird

/// Per-request state: who is asking, once authentication has said so.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Who the request acts for, set by `AuthenticationMiddleware` when it carries valid credentials.
    public var membership: Membership?

    public init(source: Source) {
        coreContext = .init(source: source)
        membership = nil
    }

    /// JSON request bodies are small: text only (photos arrive by their own streamed route).
    public var maxUploadSize: Int { 1024 * 1024 }

    /// The membership of an authenticated request (401 without one); `Access.check` has already checked its role.
    func member() throws -> Membership {
        guard let membership else { throw Problem.unauthorized }
        return membership
    }

    /// The ID in path parameter `name`. One that is not even a UUID names nothing: 404, like an unknown one.
    func id<Owner>(_ name: String = "id", of kind: String) throws -> Identifier<Owner> {
        let text = parameters.get(name) ?? ""
        guard let id = Identifier<Owner>(text) else { throw Problem(status: .notFound, detail: "no \(kind) with id \(text)") }
        return id
    }
}
