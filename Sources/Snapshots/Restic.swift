import Diary
import Foundation
import Photos

/// restic (Debian's `restic`), run as a program of its own through `ToolRun`: encryption, deduplication, retention
/// and verification are restic's, done well and readable without Saessak. Its JSON output is read; its error text is
/// turned into a sentence an owner can act on (`SnapshotFailure`).
struct Restic: Sendable {
    let settings: SnapshotSettings
    /// restic's local cache of the repository's index (in the data folder, never in the snapshots).
    let cache: URL

    /// Where restic is: `SAESSAK_RESTIC` when set (a restic of one's own), else found once on `PATH`.
    static let path: String? = {
        let environment = ProcessInfo.processInfo.environment
        if let named = environment["SAESSAK_RESTIC"], !named.isEmpty { return FileManager.default.isExecutableFile(atPath: named) ? named : nil }
        let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return (folders.map(String.init) + ["/usr/bin"]).map { "\($0)/restic" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Removes the locks of restic runs that are gone (a killed snapshot's), before reading or checking.
    func unlockStale() async throws {
        try await run(["unlock"], failing: false)
    }

    /// The repository, made when there is none yet (the first snapshot of a new target).
    func prepare() async throws {
        // Locks a killed run left behind (its process gone) would stop the prune and the check; and whether the
        // repository opens at all (each restic call derives the key again: half a second).
        let opened = try await run(["unlock"], failing: false)
        if opened.succeeded { return }
        let text = opened.errors
        guard text.contains("unable to open config file") || text.contains("Is there a repository at the following location?")
            || text.contains("does not exist")
        else { throw SnapshotFailure(resticSaid: text) }
        try await run(["init"])
    }

    struct Summary: Sendable, Decodable {
        let snapshot_id: String
        let files_new: Int
        let files_changed: Int
        let data_added: Int64
        let total_bytes_processed: Int64
    }

    /// Sends `folder` as one snapshot taken at `time`; returns restic's summary.
    func backup(_ folder: URL, time: Date) async throws -> Summary {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        // restic reads `--time` in the machine's own time zone.
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        let summary = Mutex<Summary?>(nil)
        try await run(
            ["backup", "--json", "--host", "saessak", "--tag", "saessak", "--ignore-ctime", "--time", formatter.string(from: time), folder.path]
        ) { line in
            guard line.contains("\"message_type\":\"summary\"") else { return }
            summary.withLock { $0 = try? JSONDecoder().decode(Summary.self, from: Data(line.utf8)) }
        }
        guard let found = summary.withLock({ $0 }) else { throw SnapshotFailure("restic said nothing about the snapshot it made") }
        return found
    }

    /// Forgets what the retention no longer keeps and prunes the data only they held.
    func forget() async throws {
        try await run(["forget", "--host", "saessak", "--tag", "saessak", "--group-by", "host,tags", "--prune"] + settings.retention.arguments)
    }

    /// Checks the repository's structure and reads back `subset` of its data (`3/30`: every pack once in 30 runs;
    /// nil: all of it).
    func check(subset: String?) async throws {
        do {
            try await run(["check"] + (subset.map { ["--read-data-subset=\($0)"] } ?? ["--read-data"]))
        } catch let failure as SnapshotFailure where failure.reason == .other {
            // What the check itself found: restic names the damaged pack or file.
            throw SnapshotFailure("the snapshots at the target are damaged: " + failure.description.replacingOccurrences(of: "restic: ", with: ""), reason: .damaged)
        }
    }

    struct Listed: Sendable, Decodable {
        let id: String
        let short_id: String
        let time: String
        let paths: [String]
    }

    func snapshots() async throws -> [Listed] {
        // Read without a lock: a list is only read, and a run under way (holding the repository for its prune or check)
        // does not make it wait or fail.
        let outcome = try await run(["--no-lock", "snapshots", "--json", "--host", "saessak", "--tag", "saessak"], outputLimit: 64 << 20)
        do { return try JSONDecoder().decode([Listed].self, from: outcome.output) } catch {
            throw SnapshotFailure("restic's list of snapshots could not be read: \(error)")
        }
    }

    /// Writes snapshot `id` (or the newest) into `folder`.
    func restore(_ id: String?, into folder: URL) async throws {
        try await run(["restore", id ?? "latest", "--host", "saessak", "--tag", "saessak", "--target", folder.path])
    }

    @discardableResult
    private func run(
        _ arguments: [String], failing: Bool = true, outputLimit: Int = 1 << 20, lines: (@Sendable (Substring) -> Void)? = nil
    ) async throws -> ToolRun.Outcome {
        guard let path = Self.path else { throw SnapshotFailure("restic is not installed: install the Debian package restic", reason: .missing) }
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let environment = settings.environment.merging(["RESTIC_CACHE_DIR": cache.path, "HOME": cache.path]) { _, new in new }
        let options = settings.options
        // A first snapshot of years of photos may take a day; a run past that is stuck.
        let outcome = try await onOwnThread {
            try ToolRun.run(
                program: path, options + arguments, memory: 8 << 30, timeout: 36 * 3600, outputLimit: outputLimit, environment: environment,
                lines: lines)
        }
        if failing, !outcome.succeeded {
            throw outcome.timedOut ? SnapshotFailure("restic ran for more than a day and a half and was stopped") : SnapshotFailure(resticSaid: outcome.errors)
        }
        return outcome
    }

    /// Runs blocking work on a thread of its own (restic runs for minutes; the task pool's threads are few).
    private func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.start()
        }
    }
}

import Synchronization

/// Why a snapshot could not be made, read, checked or restored, in words an owner can act on.
public struct SnapshotFailure: Error, CustomStringConvertible, Sendable {
    public let description: String
    /// What kind of trouble, for the pages to say in the reader's language.
    public let reason: SnapshotRun.Reason

    init(_ description: String, reason: SnapshotRun.Reason = .other) {
        self.description = description
        self.reason = reason
    }

    /// From restic's error text: what people can act on first, else its own `Fatal:` line.
    init(resticSaid text: String) {
        let lower = text.lowercased()
        if lower.contains("wrong password") {
            (description, reason) = ("the snapshot passphrase does not open the repository at the target (a different passphrase?)", .passphrase)
        } else if lower.contains("no space left on device") {
            (description, reason) = ("the snapshot target is full (no space left on device)", .full)
        } else if lower.contains("connection refused") || lower.contains("no such host") || lower.contains("dial tcp")
            || lower.contains("i/o timeout")
        {
            (description, reason) = ("the snapshot target cannot be reached: " + Self.fatal(text), .unreachable)
        } else if lower.contains("permission denied") || lower.contains("read-only file system") {
            (description, reason) = ("the snapshot target may not be written: " + Self.fatal(text), .permission)
        } else if lower.contains("repository is already locked") {
            (description, reason) = ("another restic is working on the snapshot target (it is locked)", .locked)
        } else {
            (description, reason) = ("restic: " + Self.fatal(text), .other)
        }
    }

    /// restic's `Fatal:` line, else its last line; never longer than a sentence or two.
    private static func fatal(_ text: String) -> String {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let line = lines.first { $0.hasPrefix("Fatal:") }.map { String($0.dropFirst(6)).trimmingCharacters(in: .whitespaces) }
            ?? lines.last ?? "it failed without saying why"
        return String(line.prefix(300))
    }
}
