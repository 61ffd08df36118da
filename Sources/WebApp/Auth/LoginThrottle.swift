import Foundation
import Synchronization

/// Slows password guessing: after `limit` wrong passwords within `window` for one account, or from one address,
/// further attempts are refused (429 with Retry-After) until the oldest failure is a window old. Kept in memory:
/// a restart forgets it, which costs a guesser a restart of the server they cannot cause.
final class LoginThrottle: Sendable {
    static let limit = 10
    static let window: TimeInterval = 60

    private let failures = Mutex<[String: [Date]]>([:])

    /// Seconds to wait before trying again, or nil when an attempt may be made now.
    func wait(account: String, address: String, now: Date) -> Int? {
        failures.withLock { failures in
            let waits = [Self.key(account: account), Self.key(address: address)].compactMap { key -> TimeInterval? in
                let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < Self.window }
                failures[key] = recent.isEmpty ? nil : recent
                guard recent.count >= Self.limit, let oldest = recent.first else { return nil }
                return Self.window - now.timeIntervalSince(oldest)
            }
            return waits.max().map { max(1, Int($0.rounded(.up))) }
        }
    }

    func recordFailure(account: String, address: String, now: Date) {
        failures.withLock { failures in
            for key in [Self.key(account: account), Self.key(address: address)] {
                failures[key, default: []].append(now)
            }
            if failures.count > 10_000 {
                failures = failures.filter { $0.value.contains { now.timeIntervalSince($0) < Self.window } }
            }
        }
    }

    /// A right password clears the account's failures (not the address's: one guesser may try many accounts).
    func recordSuccess(account: String) {
        _ = failures.withLock { $0.removeValue(forKey: Self.key(account: account)) }
    }

    private static func key(account: String) -> String { "account:" + account.lowercased() }
    private static func key(address: String) -> String { "address:" + address }
}
