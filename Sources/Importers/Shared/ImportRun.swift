import Diary
import Foundation
import Synchronization
import Persistence
import Photos

/// One import from start to end, the same for the command line and the web: read the source (photos are checked as
/// they are read), store the photo files, write everything in one transaction, then remove any stored photo file
/// no row took (`PhotoIntake`). Nothing is written if reading fails. Reading — file parsing and image checks, minutes for a
/// large export — runs on a thread of its own, never on the concurrency pool's few threads that serve requests.
public enum ImportRun {
    public static func run(
        source: String, stores: DiaryStores, photos: any PhotoStorage, family: FamilyID, now: Date, dryRun: Bool,
        inKorean: Bool = false, read: @escaping @Sendable (PhotoIntake, inout ImportReport) throws -> ImportBatch
    ) async throws -> ImportReport {
        let intake = try PhotoIntake(storage: photos, family: family, now: now, dryRun: dryRun)
        var failure: (any Error)?
        var report = ImportReport(source: source, dryRun: dryRun, inKorean: inKorean)
        do {
            var batch: ImportBatch
            (batch, report) = try await onOwnThread { [report] in
                var report = report
                let batch = try read(intake, &report)
                return (batch, report)
            }
            batch.photos = intake.photos
            try await intake.place()
            report.record(try await stores.imports.importBatch(batch, family: family, source: source, dryRun: dryRun))
        } catch {
            failure = error
        }
        await intake.settle(referenced: try? await stores.photos.referencedHashes())
        if let failure { throw failure }
        return report
    }

    /// Runs blocking work on a new thread and waits for it without holding a concurrency-pool thread.
    public static func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await onOwnThread { _ in try work() }
    }

    /// `onOwnThread`, telling the work when its caller is cancelled (the request it serves has gone): work that goes
    /// file by file checks `stop` between them and ends with `CancellationError` (issue 66: a preview went on for
    /// minutes after its client left).
    public static func onOwnThread<T: Sendable>(_ work: @escaping @Sendable (Stop) throws -> T) async throws -> T {
        let stop = Stop()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let thread = Thread { continuation.resume(with: Result { try work(stop) }) }
                thread.stackSize = 8 << 20
                thread.start()
            }
        } onCancel: {
            stop.flag.store(true, ordering: .relaxed)
        }
    }

    /// Set when the caller of `onOwnThread` is cancelled.
    public final class Stop: Sendable {
        let flag = Atomic<Bool>(false)

        /// Throws `CancellationError` once the caller has gone.
        public func check() throws {
            if flag.load(ordering: .relaxed) { throw CancellationError() }
        }
    }
}
