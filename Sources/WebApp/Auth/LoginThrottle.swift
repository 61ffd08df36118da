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

    // MARK: Codes of the second step

    /// Wrong codes of one account are remembered this long…
    static let codeMemory: TimeInterval = 24 * 3600
    /// …and each further `limit` of them doubles the wait, from a `window` up to this (issue 66: ten a minute without
    /// end gave a guesser who had the password about 4 % a day; doubling leaves about a hundred guesses a day).
    static let longestCodeWait: TimeInterval = 24 * 3600

    /// Seconds to wait before the account's next code, or nil: `limit` wrong codes wait a `window`, twice as many two
    /// windows, and so on.
    func codeWait(account: String, now: Date) async throws -> Int? {
        let recent = try await store.failures(keys: [Self.codeKey(account)], since: now.addingTimeInterval(-Self.codeMemory))
            .values.first ?? []
        guard let last = recent.last, let lock = Self.codeLock(after: recent.count) else { return nil }
        let left = lock - now.timeIntervalSince(last)
        return left > 0 ? max(1, Int(left.rounded(.up))) : nil
    }

    /// How long the account waits after `count` wrong codes in a day (nil: not at all).
    static func codeLock(after count: Int) -> TimeInterval? {
        guard count >= limit else { return nil }
        let doublings = min(count / limit - 1, 20)
        return min(longestCodeWait, window * Double(1 << doublings))
    }

    /// A wrong code: counted with wrong passwords, and towards the account's escalating wait. Returns the number of
    /// wrong codes in the last day, so the caller can tell the member when guessing starts.
    @discardableResult
    func recordCodeFailure(account: String, address: String, now: Date) async throws -> Int {
        try await store.recordFailure(keys: Self.keys(account: account, address: address) + [Self.codeKey(account)], at: now)
        return try await store.failures(keys: [Self.codeKey(account)], since: now.addingTimeInterval(-Self.codeMemory)).values.first?.count ?? 0
    }

    /// A right code clears the account's wrong codes.
    func recordCodeSuccess(account: String) async throws {
        try await store.clear(key: Self.codeKey(account))
    }

    private static func codeKey(_ account: String) -> String { "code:" + account.lowercased() }

    // MARK: Passkey challenges

    /// Passkey sign-ins one address may begin in a `window`: more than a family's phones ever ask for.
    static let challengeLimit = 30

    /// Seconds before the address may begin another passkey sign-in, or nil (and then the one begun now is counted).
    func challengeWait(address: String, now: Date) async throws -> Int? {
        let key = "challenge:" + address
        let recent = try await store.failures(keys: [key], since: now.addingTimeInterval(-Self.window)).values.first ?? []
        if recent.count >= Self.challengeLimit, let oldest = recent.first {
            return max(1, Int((Self.window - now.timeIntervalSince(oldest)).rounded(.up)))
        }
        try await store.recordFailure(keys: [key], at: now)
        return nil
    }

    private static func keys(account: String?, address: String) -> [String] {
        [Self.key(address: address)] + (account.map { [Self.key(account: $0)] } ?? [])
    }

    private static func key(account: String) -> String { "account:" + account.lowercased() }
    private static func key(address: String) -> String { "address:" + address }
}
