import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs one of Debian's ffmpeg tools on a file the server named: a fixed executable, an argument list with no shell
/// and no text from the user (paths are the server's own staging and cache names), under a memory limit
/// (`prlimit --as`) and a wall-clock limit after which it is killed, and killed too if the server dies first
/// (`setpriv --pdeathsig KILL`: a server killed mid-rendition leaves no ffmpeg running on). Both are util-linux, in
/// every Debian. Its output is read up to a limit and the rest discarded, so a hostile file cannot fill the server's
/// memory through it either.
public final class ToolRun: Sendable {
    /// The tools, found once on `PATH` (Debian's `ffmpeg` package puts both in /usr/bin).
    public enum Tool: String, Sendable {
        case ffprobe, ffmpeg

        public var path: String? { Self.found[self] ?? nil }

        /// Looked for once, not on every upload.
        private static let found: [Tool: String?] = Dictionary(uniqueKeysWithValues: [Tool.ffprobe, .ffmpeg].map { tool in
            let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            return (tool, (folders + ["/usr/bin"]).map { "\($0)/\(tool.rawValue)" }.first { FileManager.default.isExecutableFile(atPath: $0) })
        })

        /// Whether the tool is installed (the server says at start when it is not: video uploads are then refused).
        public var isInstalled: Bool { path != nil }
    }

    /// What a finished run left: its exit status (nil when it was killed), whether it was killed for time, its
    /// output, its error text.
    public struct Outcome: Sendable {
        public let status: Int32?
        public let timedOut: Bool
        public let output: Data
        public let errors: String
        public var succeeded: Bool { status == 0 }
    }

    private let process = Process()
    /// Whether it was killed, and whether for time.
    private let stopped = Mutex((killed: false, timedOut: false))

    private init() {}

    /// Runs `tool` on `input` (pinned to its container: `MediaInput`) with `options` before it and `outputs` after it —
    /// no other input can be named — and waits (blocking this thread, which must live until the tool ends: the tool is
    /// killed when the thread that started it ends; callers run it on a worker thread). `lines` receives standard
    /// output line by line as it comes (ffmpeg's `-progress`), instead of it being kept.
    public static func run(
        _ tool: Tool, _ options: [String], input: MediaInput, outputs: [String] = [], memory: Int, timeout: TimeInterval,
        outputLimit: Int = 1 << 20, started: (ToolRun) -> Void = { _ in }, lines: ((Substring) -> Void)? = nil
    ) throws(PhotoError) -> Outcome {
        guard let path = tool.path else { throw .internal("\(tool.rawValue) is not installed (Debian package ffmpeg)") }
        // Options before the input could name its format; either list could name a second input.
        guard input.format.demuxer != nil, !options.contains("-f"), !(options + outputs).contains("-i") else {
            throw .internal("\(tool.rawValue) may read only a pinned clip")
        }
        return try run(
            program: path, options + input.arguments + outputs, memory: memory, timeout: timeout, outputLimit: outputLimit,
            started: started, lines: lines)
    }

    /// Runs another program the same way: `saessak` itself, reading an untrusted file in a process of its own, or
    /// restic, making the snapshots.
    /// (Every program the server starts goes through here; `blackbox/test_media_tricks.py` lists them.)
    /// `environment` adds to the little a tool is given (restic's repository and passphrase, for the snapshots).
    public static func run(
        program path: String, _ arguments: [String], memory: Int, timeout: TimeInterval, outputLimit: Int = 1 << 20,
        environment: [String: String] = [:], started: (ToolRun) -> Void = { _ in }, lines: ((Substring) -> Void)? = nil
    ) throws(PhotoError) -> Outcome {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let run = ToolRun()
        let output = Pipe(), errors = Pipe()
        run.process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        run.process.arguments = ["--pdeathsig", "KILL", "--", "/usr/bin/prlimit", "--as=\(memory)", "--", path] + arguments
        run.process.standardInput = FileHandle.nullDevice
        run.process.standardOutput = output
        run.process.standardError = errors
        // Only what the tools need: no secret from the server's environment is handed to them.
        run.process.environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C"].merging(environment) { _, added in added }
        do {
            try run.process.run()
        } catch {
            throw .internal("cannot start \(name): \(error)")
        }
        started(run)
        let deadline = DispatchWorkItem { [run] in run.stop(timedOut: true) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: deadline)
        defer { deadline.cancel() }
        let errorText = Mutex(Data())
        let readingErrors = DispatchGroup()
        DispatchQueue.global().async(group: readingErrors) {
            errorText.withLock { $0 = Self.read(errors.fileHandleForReading, limit: 64 << 10, lines: nil) }
        }
        let kept = Self.read(output.fileHandleForReading, limit: outputLimit, lines: lines)
        readingErrors.wait()
        run.process.waitUntilExit()
        let stopped = run.stopped.withLock { $0 }
        return Outcome(
            status: stopped.killed ? nil : run.process.terminationStatus, timedOut: stopped.timedOut, output: kept,
            errors: String(decoding: errorText.withLock { $0 }, as: UTF8.self))
    }

    /// Kills the tool: the server is shutting down, or the job is no longer this server's (or time is up).
    public func stop(timedOut: Bool = false) {
        stopped.withLock { $0 = (true, $0.timedOut || timedOut) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// Reads to the end, keeping at most `limit` bytes (or handing complete lines to `lines`).
    private static func read(_ handle: FileHandle, limit: Int, lines: ((Substring) -> Void)?) -> Data {
        var kept = Data()
        var pending = ""
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            if let lines {
                pending += String(decoding: chunk, as: UTF8.self)
                while let newline = pending.firstIndex(of: "\n") {
                    lines(pending[..<newline])
                    pending = String(pending[pending.index(after: newline)...])
                }
                if pending.utf8.count > limit { pending = "" }
            } else if kept.count < limit {
                kept.append(chunk.prefix(limit - kept.count))
            }
        }
        return kept
    }
}
