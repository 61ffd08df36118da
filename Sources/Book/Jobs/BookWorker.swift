import Diary
import Foundation
import Logging
import Photos
import ServiceLifecycle
import Services
import Synchronization

/// Makes the books and archives family members ask for on the web or through the API, one at a time (a year of
/// photos takes minutes and both cores). Its queue is the database, like the rendition worker's: it claims the oldest
/// waiting job (`BookJobStore.claim`), renews the claim every few seconds with how far it has got (the books page
/// shows it), and stores the finished file beside the photos (`PhotoStorage.putBook`), where any server can hand it
/// out. A server stopped or killed mid-job lets the claim run out; the job starts again, here after a restart or on
/// another server — a job that stopped its servers three times is given up. Finished files are kept `kept`, then
/// deleted with their rows.
public final class BookWorker: Service, Sendable {
    private let stores: DiaryStores
    private let storage: any PhotoStorage
    private let logger: Logger
    private let wakeup = Wakeup()
    private let lastSweep = Mutex<ContinuousClock.Instant?>(nil)
    let name = "\(ProcessInfo.processInfo.hostName)/\(ProcessInfo.processInfo.processIdentifier)/\(UUID().uuidString.prefix(8))"

    static let lease: TimeInterval = 15
    static let renewal: Duration = .seconds(2)
    static let poll: Duration = .seconds(5)
    static let maxAttempts = 3
    /// How long a finished book (or a failed job's note) is kept for download.
    public static let kept: TimeInterval = 3 * 24 * 3600
    /// Books a family may have being made at once, and made and waiting for download.
    public static let perFamily = BookJob.Limits(making: 2, kept: 4)

    public init(stores: DiaryStores, storage: any PhotoStorage, logger: Logger) {
        self.stores = stores
        self.storage = storage
        self.logger = logger
    }

    /// A job was queued: take it now rather than at the next poll.
    public func enqueue() { wakeup.signal() }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await self.sweepExpired()
                let job: BookJob?
                do {
                    job = try await self.stores.books.claim(worker: self.name, lease: Self.lease, maxAttempts: Self.maxAttempts)
                } catch {
                    self.logger.warning("cannot claim book jobs", metadata: ["error": "\(error)"])
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

    /// Deletes books past their time (at most once a minute).
    private func sweepExpired() async {
        let now = ContinuousClock.now
        let due = lastSweep.withLock { last -> Bool in
            guard last.map({ now - $0 > .seconds(60) }) ?? true else { return false }
            last = now
            return true
        }
        guard due else { return }
        do {
            for job in try await stores.books.removeExpired(failedBefore: Date().addingTimeInterval(-Self.kept)) {
                await storage.deleteBook(StoredBook(job))
            }
        } catch {
            logger.warning("cannot remove expired books", metadata: ["error": "\(error)"])
        }
    }

    func process(_ job: BookJob) async {
        let progress = JobProgress()
        let started = ContinuousClock.now
        let format = job.request.format
        let book = StoredBook(job)
        let output = storage.scratchFile(extension: format.fileExtension)
        defer { try? FileManager.default.removeItem(at: output) }
        do {
            let pages = try await withThrowingTaskGroup(of: Int?.self) { group in
                group.addTask {
                    try await Self.make(job, to: output, stores: self.stores, storage: self.storage) { done in progress.percent.store(done, ordering: .relaxed) }
                }
                group.addTask {
                    while !Task.isCancelled {
                        try await Task.sleep(for: Self.renewal)
                        let done = progress.percent.load(ordering: .relaxed)
                        guard try await self.stores.books.renew(job.id, worker: self.name, lease: Self.lease, progress: done) else {
                            throw BookJobLost()
                        }
                    }
                    return nil
                }
                defer { group.cancelAll() }
                while let result = try await group.next() {
                    if let pages = result { return pages }
                }
                throw CancellationError()
            }
            let attributes = try FileManager.default.attributesOfItem(atPath: output.path)
            let byteCount = (attributes[.size] as? NSNumber)?.intValue ?? 0
            try await storage.putBook(output, book)
            guard try await stores.books.finish(
                job.id, worker: name, byteCount: byteCount, pages: pages, expiresAt: Date().addingTimeInterval(Self.kept))
            else {
                await storage.deleteBook(book)  // deleted while it was being made
                return
            }
            logger.info(
                "book made",
                metadata: ["job": "\(job.id)", "format": "\(format.rawValue)", "pages": "\(pages)", "seconds": "\((ContinuousClock.now - started).components.seconds)"])
        } catch is CancellationError {
            // Shutting down: the claim runs out and the job is made again after the restart.
        } catch is BookJobLost {
            logger.info("book job dropped", metadata: ["job": "\(job.id)"])
        } catch let error as BookError {
            try? await stores.books.fail(job.id, worker: name, error: error.description)
        } catch {
            logger.error("book failed", metadata: ["job": "\(job.id)", "error": "\(error)"])
            try? await stores.books.fail(job.id, worker: name, error: "the book could not be made (the server's log says why)")
        }
    }

    /// Makes the book or archive `job` asks for into `output`; the pages made. `progress` hears the per cent done.
    static func make(
        _ job: BookJob, to output: URL, stores: DiaryStores, storage: any PhotoStorage, progress: @escaping @Sendable (Int) -> Void
    ) async throws -> Int {
        let request = job.request
        guard let language = Language(rawValue: request.language) else { throw BookError.request("no language '\(request.language)'") }
        let period = if let year = request.year { try BookPeriod(year: year) } else { try BookPeriod(from: request.first, through: request.last) }
        let content = try await BookContent.gather(
            family: job.familyID, child: request.childID, period: period, language: language,
            reactions: request.reactions || request.format == .html, stores: stores)
        switch request.format {
        case .pdf:
            guard let size = PageSize(rawValue: request.size) else { throw BookError.request("no page size '\(request.size)'") }
            let report = try await BookPrinter.print(
                content, options: BookOptions(size: size, bleed: request.bleed), to: output, photos: StoredBookPhotos(storage: storage)
            ) { page, of in progress(of > 0 ? page * 100 / of : 0) }
            return report.pages
        case .html:
            let report = try await ArchiveWriter.write(content, to: output, media: StoredArchiveMedia(storage: storage)) { done, of in
                progress(of > 0 ? done * 100 / of : 0)
            }
            return report.pages
        }
    }
}

/// How far a job has got, per cent: set by the making, read by the renewal.
final class JobProgress: Sendable {
    let percent = Atomic<Int>(0)
}

/// The job is no longer this server's: deleted, or taken by another after a lease that ran out.
struct BookJobLost: Error {}
