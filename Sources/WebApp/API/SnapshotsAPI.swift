import Diary
import Foundation
import Hummingbird
import Persistence
import Snapshots

/// `GET /api/v1/snapshots/status` (owners): how the scheduled snapshots are doing — the last good one, the last
/// failure and its reason, whether they are late (docs/backup.md, "Snapshots"). `/healthz` stays about serving.
struct SnapshotsAPI {
    let store: any SnapshotStore
    let settings: SnapshotSettings?
    let clock: Persistence.Clock

    struct StatusResource: Encodable {
        let configured: Bool
        let status: SnapshotStatus?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(configured, forKey: .configured)
            if let status {
                try container.encode(status.target, forKey: .target)
                try container.encode(status.everySeconds, forKey: .everySeconds)
                try container.encodeIfPresent(status.lastGood, forKey: .lastGood)
                try container.encodeIfPresent(status.lastRun, forKey: .lastRun)
                try container.encode(status.late, forKey: .late)
            }
        }

        enum CodingKeys: String, CodingKey {
            case configured, target, everySeconds, lastGood, lastRun, late
        }
    }

    func register(on api: SecureRoutes) {
        let (store, settings, clock) = (store, settings, clock)
        api.get("snapshots/status", .owner, statements: 8) { _, _ in
            guard let settings else { return try JSONBody.response(StatusResource(configured: false, status: nil)) }
            let status = try await SnapshotStatus.read(store, settings: settings, now: clock.now())
            return try JSONBody.response(StatusResource(configured: true, status: status))
        }
    }
}
