import ArgumentParser
import Backup
import Diary
import Foundation
import Logging
import Snapshots

/// `saessak snapshots`: the scheduled, encrypted snapshots by hand (docs/backup.md, "Snapshots"). The target and the
/// passphrase are the server's (`--snapshots` or `SAESSAK_SNAPSHOTS`, `SAESSAK_SNAPSHOT_PASSWORD[_FILE]`).
struct SnapshotsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshots",
        abstract: "Take, list, verify and check on the encrypted snapshots restic keeps at the snapshot target.",
        subcommands: [Run.self, List.self, Verify.self, Status.self])

    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take a snapshot now (while the server runs, too).")
        @OptionGroup var data: DataOptions
        @OptionGroup var snapshots: SnapshotOptions

        func run() async throws {
            let database = try await data.openExisting()
            let snapshotter = Snapshotter(
                database: database, photos: try await data.photoStorage(), settings: try snapshots.required(), dataFolder: data.url,
                logger: Logger(label: "saessak"))
            do {
                guard let run = try await snapshotter.run(period: nil) else {
                    throw CLIError("a snapshot is being taken already (by the server?): try again when it is done")
                }
                let added = ByteCountFormatter.string(fromByteCount: run.bytesAdded ?? 0, countStyle: .file)
                print("Snapshot \(run.snapshotID ?? "?") taken: \(run.filesNew ?? 0) new files, \(added) sent; checked \(run.verified ?? "-") of the data.")
            } catch let failure as SnapshotFailure {
                throw CLIError(failure.description)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The snapshots at the target, oldest first.")
        @OptionGroup var data: DataOptions
        @OptionGroup var snapshots: SnapshotOptions
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let repository = SnapshotRepository(settings: try snapshots.required(), cache: cacheFolder(data))
            do {
                let listed = try await repository.list()
                if json {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                    print(String(decoding: try encoder.encode(listed), as: UTF8.self))
                } else {
                    if listed.isEmpty { print("No snapshots at the target yet.") }
                    for snapshot in listed { print("\(snapshot.shortId)  \(snapshot.time)") }
                }
            } catch let failure as SnapshotFailure {
                throw CLIError(failure.description)
            }
        }
    }

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check the target's snapshots: their structure and today's thirtieth of the data, or with --all every byte.")
        @OptionGroup var data: DataOptions
        @OptionGroup var snapshots: SnapshotOptions
        @Flag(help: "Read back all of the data (slow for a large target).") var all = false

        func run() async throws {
            let repository = SnapshotRepository(settings: try snapshots.required(), cache: cacheFolder(data))
            do {
                try await repository.verify(all: all)
                print(all ? "Every snapshot and all of their data read back whole." : "The snapshots' structure and today's share of the data are whole.")
            } catch let failure as SnapshotFailure {
                throw CLIError("the snapshots are not whole: \(failure.description)")
            }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "When the last good snapshot was taken, for cron or a monitor.",
            discussion: "Exits 1 when there is none younger than two periods, 2 when the last run failed (though a good one is recent), else 0.")
        @OptionGroup var data: DataOptions
        @OptionGroup var snapshots: SnapshotOptions
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let database = try await data.openExisting()
            let settings = try snapshots.required()
            let status = try await SnapshotStatus.read(database.stores.snapshots, settings: settings, now: database.clock.now())
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                encoder.dateEncodingStrategy = .iso8601
                print(String(decoding: try encoder.encode(status), as: UTF8.self))
            } else {
                if let good = status.lastGood {
                    print("Last good snapshot: \(good.snapshotId ?? "?") at \(ISO8601DateFormatter().string(from: good.at)) (to \(status.target)).")
                } else {
                    print("No good snapshot yet (to \(status.target)).")
                }
                if let last = status.lastRun, last.status == .failed { print("The last one failed: \(last.error ?? "?")") }
            }
            if status.late || status.lastGood == nil { throw ExitCode(1) }
            if status.lastRun?.status == .failed { throw ExitCode(2) }
        }
    }
}

/// restic's cache for the command line: the data folder's, when there is one.
private func cacheFolder(_ data: DataOptions) -> URL {
    data.url.appendingPathComponent(".snapshots/cache")
}
