/// What went wrong talking to the object store.
public enum S3Error: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing answered, or only with 5xx or timeouts, after the retries.
    case unreachable(String)
    /// The store answered no: its status, S3 error code and message (`InvalidAccessKeyId`, `NoSuchBucket`, …).
    case refused(status: Int, code: String, message: String)
    /// What came back does not match what was sent or asked for (a checksum, a size).
    case integrity(String)
    /// The answer could not be read.
    case malformed(String)
    /// A local file could not be read or written.
    case local(String)

    public var description: String {
        switch self {
        case .unreachable(let why): "the object store cannot be reached: \(why)"
        case .refused(let status, let code, let message):
            "the object store refused (\(status) \(code.isEmpty ? "no code" : code))\(message.isEmpty ? "" : ": \(message)")"
        case .integrity(let why): "the object store gave back something else: \(why)"
        case .malformed(let why): "the object store's answer cannot be read: \(why)"
        case .local(let why): why
        }
    }

    /// Refused because of the keys or their rights: a setup problem, named as such at start.
    public var isCredentials: Bool {
        guard case .refused(let status, let code, _) = self else { return false }
        return status == 403 || ["InvalidAccessKeyId", "SignatureDoesNotMatch", "AccessDenied", "InvalidToken"].contains(code)
    }
}
