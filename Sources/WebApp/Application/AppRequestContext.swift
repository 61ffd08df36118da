import Diary
import Hummingbird
import Multipart
import Persistence

/// Per-request state: who is asking, once authentication has said so.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Who the request acts for, set by `Authenticator` (in `SecureRoutes`) when it carries valid credentials.
    public var membership: Membership?
    /// The signed-in user (from a session or a token), even one in no family yet.
    public var userID: UserID?
    /// The browser's session, when the request was authenticated by its cookie.
    public var session: Session?
    /// Whether the credentials came in an `Authorization` header (which no other site can make a browser send).
    public var viaBearerToken = false
    /// The fields of a form post, read once by `SecureRoutes` (which checks their CSRF token).
    var form = FormFields()
    /// The peer's IP address, for login throttling.
    public let remoteAddress: String?

    public init(source: Source) {
        coreContext = .init(source: source)
        membership = nil
        remoteAddress = source.channel.remoteAddress?.ipAddress
    }

    /// JSON request bodies are small: text only (photos arrive by their own streamed route).
    public var maxUploadSize: Int { 1024 * 1024 }

    public var requestDecoder: APIRequestDecoder { APIRequestDecoder() }
    public var responseEncoder: APIResponseEncoder { APIResponseEncoder() }

    /// The membership of an authenticated request (401 without one); `Access.check` has already checked its role.
    func member() throws -> Membership {
        guard let membership else {
            if userID != nil { throw Problem(status: .forbidden, detail: "you are not a member of any family yet") }
            throw Problem.unauthorized
        }
        return membership
    }

    /// The signed-in user (401 without one).
    func user() throws -> UserID {
        guard let userID else { throw Problem.unauthorized }
        return userID
    }

    /// The ID in path parameter `name`. One that is not even a UUID names nothing: 404, like an unknown one.
    func id<Owner>(_ name: String = "id", of kind: String) throws -> Identifier<Owner> {
        let text = parameters.get(name) ?? ""
        guard let id = Identifier<Owner>(text) else { throw Problem(status: .notFound, detail: "no \(kind) with id \(text)") }
        return id
    }
}
