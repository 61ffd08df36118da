import ArgumentParser
import Foundation
import Snapshots

/// Where snapshots go and how (docs/backup.md, "Snapshots"): `saessak serve`, `saessak snapshots …` and `saessak
/// restore --from`. Each option has its environment variable, for a systemd unit's `Environment=`; the passphrase
/// only ever comes from the environment or a file (`SAESSAK_SNAPSHOT_PASSWORD`, `SAESSAK_SNAPSHOT_PASSWORD_FILE`).
struct SnapshotOptions: ParsableArguments {
    @Option(
        name: .customLong("snapshots"),
        help: ArgumentHelp(
            "Take snapshots to this folder on another disk, or s3://BUCKET/PREFIX?endpoint=… (env SAESSAK_SNAPSHOTS).", valueName: "TARGET"))
    var target: String?

    @Option(help: ArgumentHelp("How often: 24h, 12h, 7d (env SAESSAK_SNAPSHOT_EVERY; default 24h).", valueName: "INTERVAL"))
    var snapshotEvery: String?

    @Option(help: ArgumentHelp("How many to keep: 7d,4w,12m,1000y (env SAESSAK_SNAPSHOT_KEEP; that is the default).", valueName: "RULE"))
    var snapshotKeep: String?

    @Flag(help: "Put resident numbers into the snapshots (in plain text inside the encrypted repository).")
    var snapshotIncludeSensitive = false

    func validate() throws { _ = try settings() }

    /// The settings, or nil when no target is named.
    func settings(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> SnapshotSettings? {
        guard let target = target ?? environment["SAESSAK_SNAPSHOTS"].flatMap({ $0.isEmpty ? nil : $0 }) else { return nil }
        let made = Result { () throws(SnapshotSettings.Invalid) -> SnapshotSettings in
            let every = try SnapshotSettings.interval(snapshotEvery ?? environment["SAESSAK_SNAPSHOT_EVERY"] ?? "24h")
            let keep = try SnapshotSettings.Retention(snapshotKeep ?? environment["SAESSAK_SNAPSHOT_KEEP"] ?? "7d,4w,12m,1000y")
            return try SnapshotSettings(
                target: target, every: every, retention: keep,
                includeSensitive: snapshotIncludeSensitive || environment["SAESSAK_SNAPSHOT_INCLUDE_SENSITIVE"] == "1", environment: environment)
        }
        switch made {
        case .success(let settings): return settings
        case .failure(let invalid): throw ValidationError(invalid.description)
        }
    }

    /// The settings, or a message saying how to name a target.
    func required() throws -> SnapshotSettings {
        guard let settings = try settings() else {
            throw ValidationError("name the snapshot target: --snapshots /mnt/backup/saessak (or s3://…), or SAESSAK_SNAPSHOTS")
        }
        return settings
    }
}
