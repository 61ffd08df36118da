import Diary
import Foundation
import Importers
import KoreanCalendar
import Logging
import Services
import Synchronization

/// Imports of photos confirmed on 가져오기, made in the background (issue 40): thousands of photos take minutes, longer
/// than a phone keeps a request open. The job is a file beside the staged upload (`<data>/.imports/<token>/job.json`:
/// queued, running, done or failed, the children chosen for each day, then the report), so it lives through a restart:
/// a server starting finds the jobs that did not finish and runs them again, and since an import of photos never stores
/// a photo twice, the run again adds only what the first did not. How far it is lives in memory, for the page.
final class ImportJobs: Sendable {
    struct Job: Codable, Sendable {
        enum State: String, Codable, Sendable { case queued, running, done, failed }

        var state: State
        /// Who confirmed it: the family's record names them.
        let user: String
        /// The page's language, for the report's own lines.
        let language: String
        /// For each day of the review, the children ticked (dates and IDs as text).
        let childrenByDay: [String: [String]]
        /// The days whose photos go into the entry the diary has that day (ticked on the review).
        let intoDays: [String]
        var report: ImportReport?
        var failure: String?
    }

    /// How far a running job is: the stage, and done of total.
    struct Progress: Sendable {
        let stage: PhotoImport.Stage
        let done: Int
        let total: Int
    }

    private let stores: WebStores
    private let logger = Logger(label: "saessak.import")
    private let progress = Mutex<[String: Progress]>([:])

    init(stores: WebStores) { self.stores = stores }

    static func read(_ folder: URL) -> Job? {
        (try? Data(contentsOf: folder.appendingPathComponent("job.json"))).flatMap { try? JSONDecoder().decode(Job.self, from: $0) }
    }

    static func write(_ job: Job, to folder: URL) throws {
        try JSONEncoder().encode(job).write(to: folder.appendingPathComponent("job.json"), options: .atomic)
    }

    /// How far the job of `token` is, while this server runs it.
    func progress(_ token: String) -> Progress? { progress.withLock { $0[token] } }

    /// Queues the import of `staged` and starts it.
    func start(_ staged: ImportPages.Staged, job: Job) throws {
        try Self.write(job, to: staged.folder)
        launch(staged)
    }

    /// Runs again every job a stopped server left queued or running.
    func resume(staged: [ImportPages.Staged]) {
        for item in staged where [.queued, .running].contains(Self.read(item.folder)?.state) { launch(item) }
    }

    private func launch(_ staged: ImportPages.Staged) {
        Task.detached { await self.run(staged) }
    }

    private func run(_ staged: ImportPages.Staged) async {
        guard var job = Self.read(staged.folder) else { return }
        let token = staged.folder.lastPathComponent
        job.state = .running
        try? Self.write(job, to: staged.folder)
        let language = Language(rawValue: job.language) ?? .korean
        do {
            // A job lives while whoever confirmed it may still import (`Grant.photoImport`): removed from the family or
            // made a viewer before it ran (or before a restart ran it again), it writes nothing.
            var role: Role?
            if let user = UserID(job.user) {
                role = try await stores.database.stores.accounts.account(user).families.first { $0.family.id == staged.family }?.role
            }
            guard Grant.photoImport.isHeld(by: role) else {
                throw ImportFailure(
                    "whoever confirmed this import may no longer import into this family",
                    korean: "이 가져오기를 확인한 사람이 더 이상 이 가족에 가져올 수 없습니다")
            }
            let children = try await stores.allChildren(staged.family)
            var byDay: [SolarDate: [ChildID]] = [:]
            for (day, ids) in job.childrenByDay {
                guard let date = try? SolarDate(iso: day) else { continue }
                byDay[date] = ids.compactMap(ChildID.init).filter { id in children.contains { $0.id == id } }
            }
            var report = try await PhotoImport.run(
                paths: [staged.file.deletingLastPathComponent().path], stores: stores.database.stores, storage: stores.photos.storage,
                family: staged.family, children: children.map(\.id), now: stores.today.clock.now(), dryRun: false,
                language: language == .korean ? .korean : .english, childrenByDay: byDay,
                addToDays: Set(job.intoDays.compactMap { try? SolarDate(iso: $0) }),
                reportLanguage: language == .korean ? .korean : .english, maxFiles: ImportPages.maxPhotosPerImport
            ) { [self] stage, done, total in
                progress.withLock { $0[token] = Progress(stage: stage, done: done, total: total) }
            }
            for day in report.days ?? [] {
                if let date = try? SolarDate(iso: day.date), byDay[date]?.isEmpty ?? true {
                    report.skipped.append(ImportWord.importNoChildThatDay.text(language, language.longDate(date)))
                }
            }
            job.report = report
            job.state = .done
            try? await stores.database.stores.activity.record(
                family: staged.family, actor: UserID(job.user), action: .created, kind: .entry, subjectID: nil, label: staged.fileName,
                detail: "import \(report.added["entries"] ?? 0)")
        } catch {
            job.state = .failed
            job.failure = (error as? ImportFailure)?.text(inKorean: language == .korean) ?? "\(error)"
            logger.warning("an import of photos failed", metadata: ["error": "\(error)"])
        }
        do {
            try Self.write(job, to: staged.folder)
            // Done, the upload is no longer needed; the job stays to show its report (swept with the folder later).
            if job.state == .done { try? FileManager.default.removeItem(at: staged.file.deletingLastPathComponent()) }
        } catch {
            logger.warning("an import's state could not be written", metadata: ["error": "\(error)"])
        }
        _ = progress.withLock { $0.removeValue(forKey: token) }
    }
}
