/// Why the store refused a request. The web layer maps each case to one HTTP status.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No such object in this family (it may exist in another: the caller must not learn that).
    case notFound(kind: String, id: String)
    /// A field refers to an object that is not in this family.
    case unknownReference(field: String, id: String)
    /// A name that must be unique is taken.
    case conflict(field: String, message: String)
    /// The data folder has no family, or several and none was named.
    case familyNeeded(String)
    /// A stored value could not be read back (a damaged row or a wrong encryption key).
    case unreadable(String)
    /// The database cannot be reached or did not answer in time (PostgreSQL down or restarting): try again later.
    case unavailable(String)
    /// The object changed since the version the caller read (an edit made offline, or on another device): nothing
    /// was written, so the caller can show both versions.
    case changed(kind: String, id: String)

    public var description: String {
        switch self {
        case .notFound(let kind, let id): "no \(kind) with id \(id)"
        case .unknownReference(let field, let id): "\(field): no such object \(id) in this family"
        case .conflict(let field, let message): "\(field): \(message)"
        case .familyNeeded(let message): message
        case .unreadable(let message): "stored data could not be read: \(message)"
        case .unavailable(let message): "the database is unavailable: \(message)"
        case .changed(let kind, let id): "the \(kind) \(id) was changed since the version given in If-Match"
        }
    }
}

/// The disk under the data folder (or the database's) is full: nothing of the write was kept, and the same request
/// succeeds once space is freed. Answered 507 naming the cause, never "request failed" (issue 66).
public struct StorageFull: Error, Sendable, Equatable, CustomStringConvertible {
    /// What could not be written: "the database", "the photo".
    public let what: String

    public init(_ what: String) { self.what = what }

    public var description: String { "the server's disk is full: \(what) could not be written (free some space, then try again)" }
}
