import HummingbirdBcrypt

/// bcrypt password hashes. Cost 12 takes about a quarter of a second here: slow enough to make guessing
/// expensive, fast enough for a login. Tests may lower it; stored hashes carry their own cost.
public struct PasswordHasher: Sendable {
    public let cost: UInt8

    public static let minimumPasswordLength = 8
    public static let maximumPasswordLength = 72  // bcrypt reads only the first 72 bytes

    public init(cost: UInt8 = 12) { self.cost = cost }

    public func hash(_ password: String) -> String {
        Bcrypt.hash(password, cost: cost)
    }

    public func verify(_ password: String, against hash: String) -> Bool {
        Bcrypt.verify(password, hash: hash)
    }

    /// Why a password is refused, or nil when it is acceptable.
    public static func problem(with password: String) -> String? {
        if password.count < minimumPasswordLength { return "must be at least \(minimumPasswordLength) characters" }
        if password.utf8.count > maximumPasswordLength { return "must be at most \(maximumPasswordLength) bytes" }
        return nil
    }
}
