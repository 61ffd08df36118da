import Diary
import Foundation
import Hummingbird
import Importers
import KoreanCalendar
import Multipart
import Persistence
import Photos
import Services

/// `/settings/import`: the command line's importers in the browser. The file is uploaded and tried (a dry run),
/// the report shown, and only a confirmation imports it; the upload waits in `<data>/.imports/<token>/` meanwhile,
/// bound to the family, and is deleted after the import, on cancel, or after an hour.
struct ImportPages {
    let stores: WebStores
    /// The imports of photos made in the background.
    let jobs: ImportJobs

    init(stores: WebStores) {
        self.stores = stores
        jobs = ImportJobs(stores: stores)
    }

    enum Kind: String, CaseIterable {
        case text, iphotodiary, dayone, photos
    }

    /// Photos and clips picked one by one (or ZIPs of them): at most this many files in one upload.
    static let maxPhotoFiles = 1_000
    /// The photos and clips one import from the page may hold, loose or inside its ZIPs (the command line has no cap).
    static let maxPhotosPerImport = 5_000

    /// A Day One export with its photos can be large.
    static let maxUpload = 4 * 1024 * 1024 * 1024
    static let lifetime: TimeInterval = 3600

    var stagingRoot: URL { stores.dataFolder.appendingPathComponent(".imports", isDirectory: true) }

    func register(on pages: SecureRoutes) {
        pages.get("settings/import", .editor, statements: 8) { request, context in
            sweep()
            return try await form(request, context: context)
        }
        pages.post("settings/import", .editor) { request, context in
            // A preview reads every file of the upload (minutes for a large one): when the browser goes, the work
            // stops (issue 66). Only a multipart body straight from the connection can be watched so; anything else
            // is refused by `upload` as it is.
            guard request.headers[.contentType]?.lowercased().hasPrefix("multipart/form-data") == true else {
                return try await upload(request, context: context)
            }
            return try await request.body.consumeWithCancellationOnInboundClose { body in
                var watched = request
                watched.body = body
                return try await upload(watched, context: context)
            }
        }
        pages.post("settings/import/:token/confirm", .editor) { request, context in
            let staged = try staged(try context.parameters.require("token"), family: try context.member().familyID)
            if staged.kind == .photos {
                // In the background (a job that outlives a restart); the page follows it. Confirming twice starts nothing more.
                if ImportJobs.read(staged.folder) == nil {
                    try jobs.start(
                        staged,
                        job: ImportJobs.Job(
                            state: .queued, user: try context.user().description, language: Language(request).rawValue,
                            childrenByDay: Dictionary(context.form.all("day").map { ($0, context.form.all("child-\($0)")) }, uniquingKeysWith: { a, _ in a }),
                            intoDays: context.form.all("day").filter { context.form["into-\($0)"] == "1" },
                            report: nil, failure: nil))
                }
                return AccountPages.redirect("/settings/import/\(staged.folder.lastPathComponent)")
            }
            defer { try? FileManager.default.removeItem(at: staged.folder) }
            return try await run(staged, dryRun: false, request: request, context: context)
        }
        pages.get("settings/import/:token", .editor, statements: 8) { request, context in
            try await status(try staged(try context.parameters.require("token"), family: try context.member().familyID), request: request, context: context)
        }
        pages.post("settings/import/:token/cancel", .editor) { _, context in
            let staged = try staged(try context.parameters.require("token"), family: try context.member().familyID)
            if let job = ImportJobs.read(staged.folder), job.state == .queued || job.state == .running {
                return AccountPages.redirect("/settings/import/\(staged.folder.lastPathComponent)")  // under way: it finishes
            }
            try? FileManager.default.removeItem(at: staged.folder)
            return AccountPages.redirect("/settings/import")
        }
        sweep(everythingIdle: true)
        jobs.resume(staged: allStaged())
    }

    /// What `import-progress.mustache` shows while an import of photos is made.
    struct ProgressModel: PageModel {
        let fileName: String
        let stage: String
        let done: Int
        let total: Int
        let percent: Int
        let failure: String?
    }

    /// An import of photos under way (its progress), finished (its report) or failed (why).
    private func status(_ staged: Staged, request: Request, context: AppRequestContext) async throws -> Response {
        let words = Words.table(Language(request))
        guard let job = ImportJobs.read(staged.folder) else { throw Problem(status: .notFound, detail: "no such import under way") }
        if job.state == .done, let done = job.report {
            let children = try await stores.allChildren(staged.family)
            return report(done, staged: staged, dryRun: false, children: children, chosen: [], request: request, context: context)
        }
        let now = jobs.progress(staged.folder.lastPathComponent)
        let stage = now.map { $0.stage == .surveying ? ImportWord.importSurveying : ImportWord.importImporting } ?? .importWaiting
        let model = ProgressModel(
            fileName: staged.fileName, stage: words[stage], done: now?.done ?? 0, total: now?.total ?? 0,
            percent: now.map { $0.total > 0 ? $0.done * 100 / $0.total : 0 } ?? 0, failure: job.state == .failed ? job.failure ?? "" : nil)
        return WebPage("import-progress", title: words[.importTitle], tab: .more, model: model, status: job.state == .failed ? .unprocessableContent : .ok)
            .response(request, context: context)
    }

    /// What `import.mustache` shows: the kinds of import, the children to give the entries to, the text encodings.
    struct FormModel: PageModel {
        let kinds: [Option]
        let children: [ChildChoice]
        let encodings: [Option]
        let error: String?
    }

    /// What `import-report.mustache` shows: what the import found and wrote (or, in a dry run, would write); for
    /// photos, the days their entries are made on, each with the children it is about (chosen there before confirming).
    struct ReportModel: PageModel {
        let token: String
        let dryRun: Bool
        let fileName: String
        let counts: [ReportCount]
        let skipped: [String]
        let warnings: [String]
        let days: [DayRow]
    }

    /// A day of an import of photos on the review page.
    struct DayRow {
        let date: String
        let name: String
        let counts: String
        let hasEntries: String?
        let children: [ChildChoice]
        /// "Add the photos to that entry", for a day the diary has an entry on.
        let addToEntry: String?
    }

    struct ReportCount {
        let name: String
        let found: Int
        let added: Int
        let duplicates: Int
    }

    // MARK: Pages

    private func form(_ request: Request, context: AppRequestContext, error: String? = nil) async throws -> Response {
        let words = Words.table(Language(request))
        let children = try await stores.allChildren(try context.member().familyID)
        let model = FormModel(
            kinds: Kind.allCases.map { Option(value: $0.rawValue, name: words.named("import_\($0.rawValue)") ?? "") },
            children: children.map { ChildChoice($0, selected: false) },
            encodings: TextImport.Encoding.allCases.map { Option(value: $0.rawValue, name: $0.rawValue) }, error: error)
        return WebPage("import", title: words[.importTitle], tab: .more, model: model, status: error == nil ? .ok : .unprocessableContent)
            .response(request, context: context)
    }

    /// An import that cannot go on, in the page's language: what failed, then the file, the record and the field of
    /// the source, as the source names them ("가져오지 못했습니다: dayone.zip: 내보낸 파일에 일기장이 없습니다 …").
    static func failed(_ failure: ImportFailure, _ words: Words) -> String {
        "\(ImportWord.importFailed.text(words.language)): \(failure.text(inKorean: words.language == .korean))"
    }

    /// The upload: staged, then tried.
    private func upload(_ request: Request, context: AppRequestContext) async throws -> Response {
        let family = try context.member().familyID
        sweep()
        let form = try await MultipartForm.read(
            request, storage: stores.photos.storage, limits: PhotoLimits(maxBytes: Self.maxUpload, maxPixels: 0), maxFiles: Self.maxPhotoFiles)
        defer { form.uploads.forEach { $0.abandon() } }
        let words = Words.table(Language(request))
        guard let kind = form.field("kind").flatMap(Kind.init(rawValue:)) else {
            return try await self.form(request, context: context, error: words[.importChooseKind])
        }
        guard let main = form.uploadFields.firstIndex(of: "file") else {
            return try await self.form(request, context: context, error: words[.importChooseFile])
        }
        let token = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        let folder = stagingRoot.appendingPathComponent(token, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var staged = Staged(
            folder: folder, family: family, kind: kind, fileName: Self.safeName(form.uploadNames[main], kind: kind),
            encoding: form.field("encoding").flatMap(TextImport.Encoding.init(rawValue:)) ?? .auto,
            children: (form.fields["childId"] ?? []).compactMap(ChildID.init), hasPlist: false)
        do {
            try FileManager.default.createDirectory(at: staged.file.deletingLastPathComponent(), withIntermediateDirectories: true)
            _ = try form.uploads[main].finish()
            try FileManager.default.moveItem(at: form.uploads[main].url, to: staged.file)
            if kind == .photos {
                // Every file picked, under its own name (a Live Photo's halves and a Takeout's sidecars pair by name).
                for index in form.uploadFields.indices where form.uploadFields[index] == "file" && index != main {
                    _ = try form.uploads[index].finish()
                    var name = Self.safeName(form.uploadNames[index], kind: kind)
                    let folder = staged.file.deletingLastPathComponent()
                    var copy = 2
                    while FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) {
                        let base = (Self.safeName(form.uploadNames[index], kind: kind) as NSString)
                        name = "\(base.deletingPathExtension) \(copy)" + (base.pathExtension.isEmpty ? "" : ".\(base.pathExtension)")
                        copy += 1
                    }
                    try FileManager.default.moveItem(at: form.uploads[index].url, to: folder.appendingPathComponent(name))
                }
            }
            if kind == .iphotodiary, let plist = form.uploadFields.firstIndex(of: "plist") {
                _ = try form.uploads[plist].finish()
                try FileManager.default.moveItem(at: form.uploads[plist].url, to: staged.plist)
                staged.hasPlist = true
            }
            if kind == .text && staged.fileName.lowercased().hasSuffix(".zip") {
                // Inflating a large archive is blocking work: on a thread of its own, not one of the server's.
                let (zip, texts) = (staged.file, staged.texts)
                try await ImportRun.onOwnThread { try TextImport.unpack(zip: zip, into: texts) }
            }
            try JSONEncoder().encode(staged.saved).write(to: folder.appendingPathComponent("import.json"), options: .atomic)
        } catch let failure as ImportFailure {
            try? FileManager.default.removeItem(at: folder)
            return try await self.form(request, context: context, error: Self.failed(failure, words))
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        do {
            let response = try await run(staged, dryRun: true, request: request, context: context)
            if response.status != .ok { try? FileManager.default.removeItem(at: folder) }
            return response
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// Runs the import (or its dry run) and shows the report.
    private func run(_ staged: Staged, dryRun: Bool, request: Request, context: AppRequestContext) async throws -> Response {
        let words = Words.table(Language(request))
        let family = staged.family
        let children = try await stores.allChildren(family)
        let chosen = staged.children.isEmpty ? children.map(\.id) : staged.children.filter { id in children.contains { $0.id == id } }
        let report: ImportReport
        do {
            if staged.kind != .iphotodiary && chosen.isEmpty {
                try? FileManager.default.removeItem(at: staged.folder)
                return try await form(request, context: context, error: words[.importNeedsChild])
            }
            if staged.kind == .photos {
                // The preview only: confirmed, an import of photos is made in the background (`ImportJobs`).
                report = try await PhotoImport.run(
                    paths: [staged.file.deletingLastPathComponent().path], stores: stores.database.stores, storage: stores.photos.storage,
                    family: family, children: chosen, now: stores.today.clock.now(), dryRun: true,
                    language: words.language == .korean ? .korean : .english, reportLanguage: words.language == .korean ? .korean : .english,
                    maxFiles: Self.maxPhotosPerImport)
            } else {
            report = try await ImportRun.run(
                source: staged.kind.rawValue, stores: stores.database.stores, photos: stores.photos.storage, family: family,
                now: stores.today.clock.now(), dryRun: dryRun, inKorean: words.language == .korean
            ) { intake, report in
                var batch = ImportBatch()
                switch staged.kind {
                case .text:
                    // A ZIP of diaries was unpacked beside the upload when it arrived.
                    let files = staged.fileName.lowercased().hasSuffix(".zip") ? try TextImport.files(at: staged.texts) : [staged.file]
                    batch.entries = try TextImport.items(from: files, encoding: staged.encoding, children: chosen, report: &report)
                case .iphotodiary:
                    batch = try IPhotoDiaryImport.read(
                        store: staged.file, anniversaries: staged.hasPlist ? staged.plist : nil, existing: children, family: family,
                        now: stores.today.clock.now(), intake: intake, report: &report)
                case .dayone:
                    batch = try DayOneImport.read(export: staged.file, children: chosen, family: family, intake: intake, report: &report)
                case .photos:
                    break  // read above, a day at a time
                }
                return batch
            }
            }
        } catch let failure as ImportFailure {
            try? FileManager.default.removeItem(at: staged.folder)
            return try await form(request, context: context, error: Self.failed(failure, words))
        }
        if !dryRun {
            // One line for the whole import: the file and how many entries it added.
            await context.record(.created, .entry, id: nil, label: staged.fileName, detail: "import \(report.added["entries"] ?? 0)")
        }
        return self.report(report, staged: staged, dryRun: dryRun, children: children, chosen: chosen, request: request, context: context)
    }

    /// The report page: what the import found and wrote (in a dry run, would write), and for photos the days to review.
    private func report(
        _ report: ImportReport, staged: Staged, dryRun: Bool, children: [Child], chosen: [ChildID], request: Request,
        context: AppRequestContext
    ) -> Response {
        let words = Words.table(Language(request))
        let model = ReportModel(
            token: staged.folder.lastPathComponent, dryRun: dryRun, fileName: staged.fileName,
            counts: report.rows.map {
                ReportCount(name: words.named("importKind_\($0.kind)") ?? "", found: $0.found, added: $0.added, duplicates: $0.duplicates)
            },
            skipped: report.skipped, warnings: report.warnings,
            days: dryRun ? (report.days ?? []).compactMap { day in Self.dayRow(day, children: children, chosen: chosen, words: words) } : [])
        return WebPage("import-report", title: words[dryRun ? .importPreview : .importDone], tab: .more, model: model)
            .response(request, context: context)
    }

    /// A day of the review: its date in the page's language, what it brings, and its children (those chosen for the
    /// whole import ticked).
    static func dayRow(_ day: ImportReport.Day, children: [Child], chosen: [ChildID], words: Words) -> DayRow? {
        guard let date = try? SolarDate(iso: day.date) else { return nil }
        let name = words.language.longDate(date)
        return DayRow(
            date: day.date, name: name, counts: ImportWord.importDayCounts.text(words.language, "\(day.photos)", "\(day.clips)"),
            hasEntries: day.entriesThatDay > 0 ? ImportWord.importDayHasEntries.text(words.language, "\(day.entriesThatDay)") : nil,
            children: children.map { ChildChoice($0, selected: chosen.contains($0.id)) },
            addToEntry: day.entriesThatDay > 0 ? words[ImportWord.importAddToEntry] : nil)
    }

    /// The browser's file name, reduced to safe characters (the kind's usual name when nothing is left).
    static func safeName(_ name: String, kind: Kind) -> String {
        let kept = String(name.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || "-_. ".unicodeScalars.contains($0) })
            .trimmingCharacters(in: CharacterSet(charactersIn: ". "))
        if !kept.isEmpty && kept.count <= 120 { return kept }
        return switch kind {
        case .text: "diary.txt"
        case .iphotodiary: "NewIPhotoDiary.sqlite"
        case .dayone: "export.zip"
        case .photos: "photo"
        }
    }
}
