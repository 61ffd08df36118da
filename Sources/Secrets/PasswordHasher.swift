import Foundation
import HummingbirdBcrypt

/// bcrypt password hashes. Cost 12 takes about a quarter of a second here: slow enough to make guessing
/// expensive, fast enough for a login. Tests may lower it; stored hashes carry their own cost.
public struct PasswordHasher: Sendable {
    public let cost: UInt8

    public static let minimumPasswordLength = 8
    public static let maximumPasswordLength = 72  // bcrypt reads only the first 72 bytes

    public init(cost: UInt8 = defaultCost) { self.cost = cost }

    /// 12. A debug build — the one `make test` runs, never an optimised one — takes a lower cost from
    /// `SAESSAK_TEST_BCRYPT_COST` (4 to 12): a debug build's bcrypt takes half a second a hash, and the black-box
    /// tests make and check passwords again and again (four sign-in modules took 39 s at 12 and 13 s at 4;
    /// docs/reliability.md, "How long make test takes").
    public static let defaultCost: UInt8 = {
        #if DEBUG
        if let text = ProcessInfo.processInfo.environment["SAESSAK_TEST_BCRYPT_COST"], let cost = UInt8(text), (4...12).contains(cost) {
            return cost
        }
        #endif
        return 12
    }()

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
