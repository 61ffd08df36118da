import Diary
import Foundation
import Logging
import Persistence
import Photos
import ServiceLifecycle
import Synchronization

/// Makes the web renditions of clips browsers cannot play (HEVC, QuickTime), one at a time: ffmpeg takes both cores
/// of a small server for a minute or more. Its queue is the database, like the thumbnail worker's: it claims one
/// pending clip (`PhotoStore.claimRenditionJob`) and renews the claim every few seconds with how far ffmpeg has got,
/// which the entry shows. A server stopped or killed mid-job lets the claim run out; the job starts again from the
/// original, here after a restart or on another server. ffmpeg runs on a thread of its own, not NIO's pool.
public final class RenditionWorker: Service, Sendable {
    private let storage: any PhotoStorage
    private let store: any PhotoStore
    private let logger: Logger
    private let wakeup = Wakeup()
    let name = "\(ProcessInfo.processInfo.hostName)/\(ProcessInfo.processInfo.processIdentifier)/\(UUID().uuidString.prefix(8))"
    /// A claim lasts this long unless renewed; renewed every `renewal`. Short, so that a clip a killed server was
    /// working on is taken up again soon after the restart.
    static let lease: TimeInterval = 20
    static let renewal: Duration = .seconds(1)
    static let poll: Duration = .seconds(5)

    init(storage: any PhotoStorage, store: any PhotoStore, logger: Logger) {
        self.storage = storage
        self.store = store
        self.logger = logger
    }

    func enqueue() { wakeup.signal() }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let job: Photo?
                do {
                    job = try await self.store.claimRenditionJob(worker: self.name, lease: Self.lease)
                } catch {
                    self.logger.warning("cannot claim rendition jobs", metadata: ["error": "\(error)"])
                    job = nil
                }
                if let job {
                    await self.process(job)
                } else {
                    await self.wakeup.wait(atMost: Self.poll)
                }
            }
        }
    }

    private func process(_ photo: Photo) async {
        do {
            guard let video = photo.video, let format = MediaFormat(mimeType: photo.mimeType) else {
                throw PhotoError.internal("not a video")
            }
            // The same clip in another family: its rendition is made already.
            if try await storage.openRendition(sha256: photo.sha256) != nil {
                try await store.markRendition(photo.id, ready: true)
                return
            }
            guard let original = try await storage.localOriginal(sha256: photo.sha256, format: format) else {
                throw PhotoError.corruptVideo("its original is missing")
            }
            let output = storage.scratchFile(extension: "mp4")
            let plan = RenditionPlan(format: format, videoCodec: video.videoCodec, audioCodec: video.audioCodec)
            let job = RenditionJob()
            let started = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await job.runOnThread {
                        try VideoRendition.make(
                            plan == .none ? .remux : plan, clip: MediaInput(path: original.url.path, format: format), durationMilliseconds: video.durationMilliseconds,
                            output: output, started: job.started, progress: job.report)
                    }
                }
                group.addTask {
                    while !Task.isCancelled {
                        try await Task.sleep(for: Self.renewal)
                        guard try await self.store.renewRendition(photo.id, worker: self.name, lease: Self.lease, progress: job.percent)
                        else {
                            job.stop()
                            throw PhotoError.internal("the claim on the rendition was lost")
                        }
                    }
                }
                try await group.next()
                group.cancelAll()
            }
            try await storage.putRendition(output, sha256: photo.sha256)
            try await store.markRendition(photo.id, ready: true)
            logger.info(
                "rendition made",
                metadata: ["photo": "\(photo.id)", "plan": "\(plan.rawValue)", "seconds": "\((ContinuousClock.now - started).components.seconds)"])
        } catch is CancellationError {
            // Shutting down: the claim runs out and the job is done again after the restart.
        } catch PhotoError.corruptVideo(let why) {
            // For good: ffmpeg cannot convert it, took longer than it may, or the original is gone.
            logger.error("rendition failed", metadata: ["photo": "\(photo.id)", "error": "\(why)"])
            try? await store.markRendition(photo.id, ready: false)
        } catch {
            // The store, the disk or a lost claim: left to the claim's end, when it is tried again.
            logger.error("rendition interrupted", metadata: ["photo": "\(photo.id)", "error": "\(error)"])
        }
    }
}

/// One rendition under way: the ffmpeg process (to stop it) and how far it is.
final class RenditionJob: Sendable {
    private let state = Mutex<(tool: ToolRun?, done: Double, stopped: Bool)>((nil, 0, false))

    var percent: Int { state.withLock { Int(($0.done * 100).rounded(.down)) } }

    func started(_ tool: ToolRun) {
        let stopped = state.withLock { state in
            state.tool = tool
            return state.stopped
        }
        if stopped { tool.stop() }
    }

    func report(_ done: Double) { state.withLock { $0.done = done } }

    func stop() {
        let tool = state.withLock { state in
            state.stopped = true
            return state.tool
        }
        tool?.stop()
    }

    /// Runs `work` on a new thread (ffmpeg runs for minutes; NIO's pool is for short image work), stopping the tool
    /// when the task is cancelled.
    func runOnThread(_ work: @escaping @Sendable () throws -> Void) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                Thread.detachNewThread {
                    do {
                        try work()
                        continuation.resume()
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
            }
        } onCancel: {
            self.stop()
        }
        try Task.checkCancellation()
    }
}
