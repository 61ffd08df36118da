import Diary
import Foundation

/// Slows password guessing: after `limit` wrong passwords within `window` for one account, or from one address,
/// further attempts are refused (429 with Retry-After) until the oldest failure is a window old. Kept in the
/// database (`LoginFailureStore`), so that several servers behind one load balancer count the same failures and a
/// guesser gains nothing by landing on another.
struct LoginThrottle: Sendable {
    static let limit = 10
    static let window: TimeInterval = 60

    let store: any LoginFailureStore

    /// Seconds to wait before trying again, or nil when an attempt may be made now.
    /// A passkey sign-in names no account until its passkey is found: `account` nil counts the address alone.
    func wait(account: String?, address: String, now: Date) async throws -> Int? {
        let failures = try await store.failures(keys: Self.keys(account: account, address: address), since: now.addingTimeInterval(-Self.window))
        let waits = failures.values.compactMap { recent -> TimeInterval? in
            guard recent.count >= Self.limit, let oldest = recent.first else { return nil }
            return Self.window - now.timeIntervalSince(oldest)
        }
        return waits.max().map { max(1, Int($0.rounded(.up))) }
    }

    /// Wrong passwords, wrong codes and passkey answers that fail all count here, towards the same limits.
    func recordFailure(account: String?, address: String, now: Date) async throws {
        try await store.recordFailure(keys: Self.keys(account: account, address: address), at: now)
    }

    /// A right password clears the account's failures (not the address's: one guesser may try many accounts).
    func recordSuccess(account: String) async throws {
        try await store.clear(key: Self.key(account: account))
    }

    private static func keys(account: String?, address: String) -> [String] {
        [Self.key(address: address)] + (account.map { [Self.key(account: $0)] } ?? [])
    }

    private static func key(account: String) -> String { "account:" + account.lowercased() }
    private static func key(address: String) -> String { "address:" + address }
}
