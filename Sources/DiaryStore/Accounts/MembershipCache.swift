import Diary
import Foundation
import Synchronization

/// Who recent API tokens act for, kept for a few seconds so that a page of thumbnails does not hash and look up the
/// same token dozens of times. Any change to memberships or tokens through the store empties it; a change made by
/// another process (the CLI) is seen within `lifetime`.
final class MembershipCache: Sendable {
    static let lifetime: TimeInterval = 10
    static let capacity = 1_000

    private let entries = Mutex<[Data: (membership: Membership, expires: Date)]>([:])

    func membership(for digest: Data, now: Date) -> Membership? {
        entries.withLock { entries in
            guard let entry = entries[digest], entry.expires > now else { return nil }
            return entry.membership
        }
    }

    func remember(_ membership: Membership, for digest: Data, now: Date) {
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll() }
            entries[digest] = (membership, now.addingTimeInterval(Self.lifetime))
        }
    }

    func removeAll() { entries.withLock { $0.removeAll() } }
}
