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
    /// Where `record` writes the family's activity, set by `Authenticator`.
    var activity: (any ActivityStore)?

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

    /// Adds a line to the family's record of who did what, as done by whoever asks (docs/trash.md). Called after the
    /// change is saved: a record that cannot be written is logged, and the change stands.
    func record(_ action: ActivityAction, _ kind: ActivityKind, id: String?, label: String = "", detail: String = "") async {
        guard let activity, let membership else { return }
        do {
            try await activity.record(
                family: membership.familyID, actor: userID, action: action, kind: kind, subjectID: id, label: label, detail: detail)
        } catch {
            logger.warning("the activity record was not written", metadata: ["action": "\(action.rawValue)", "kind": "\(kind.rawValue)", "error": "\(error)"])
        }
    }

    /// `record` for what a delete put in the trash.
    func record(deleted item: TrashItem?) async {
        guard let item else { return }
        await record(.deleted, ActivityKind(item.kind), id: item.itemID, label: item.label)
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
