import Diary
import Foundation
import KoreanCalendar
import Photos

/// `saessak import photos`: the years before Saessak — a phone's camera folder, a laptop's pictures, ZIPs of them —
/// made into entries, one a day (docs/import.md, "Photos").
///
/// Two passes. The survey reads every file's hash and capture time (its header and metadata: no thumbnail, nothing
/// kept) and groups the files by the day they were taken, on the clock of where they were taken (EXIF or the clip's
/// own time; the file's last change when it says nothing). Then each day is one import: its files staged and
/// checked, stored, and its entry written with them in one transaction — all or nothing a day. A photo already in
/// the diary (the same bytes, in an entry, the trash or an earlier run) is never stored twice, so a second run adds
/// nothing and a run cut short by a crash goes on where it stopped.
public enum PhotoImport {
    public static let source = "photos"
    /// Every entry an import of photos makes carries this tag, as the diaries imported do.
    public static let tag = "가져옴"

    /// The language of the entries' titles ("사진 3장 · 동영상 1개", "3 photos · 1 clip").
    public enum Language: String, Sendable, CaseIterable {
        case korean = "ko", english = "en"
    }

    /// A photo or clip surveyed: where it is, what it is, and the wall-clock time it is filed under.
    struct Surveyed: Sendable {
        let file: PhotoFiles.File
        let media: SurveyedMedia
        /// When it was taken (`YYYY-MM-DDTHH:MM`), else when the file was last changed.
        let time: LocalDateTime
        /// The capture time's UTC offset, when the camera recorded one.
        let offset: String?
    }

    /// Surveys `paths`, then (unless `dryRun`) imports their photos a day at a time for `children`. A path that
    /// cannot be read stops the import before anything is written; a file that is no photo Saessak takes is named in
    /// the report's `skipped` with why, and the rest go on. A failure while writing a day stops the import with the
    /// days before it kept: run it again to go on.
    public static func run(
        paths: [String], stores: DiaryStores, storage: any PhotoStorage, family: FamilyID, children: [ChildID], now: Date,
        dryRun: Bool, language: Language = .korean
    ) async throws -> ImportReport {
        guard !children.isEmpty else { throw ImportFailure("the family has no children yet: add one first (entries are about a child)") }
        var report = ImportReport(source: paths.joined(separator: ", "), dryRun: dryRun)
        let zone = TimeZone(identifier: EntryContent.defaultTimeZone) ?? .current
        let (files, surveyed, refused) = try await ImportRun.onOwnThread { () throws -> (PhotoFiles, [Surveyed], [String]) in
            let files = try PhotoFiles(paths: paths, zone: zone)
            let (surveyed, refused) = try survey(files, storage: storage, family: family, now: now)
            return (files, surveyed, refused)
        }
        report.files = files.files.count
        report.skipped += refused
        if !files.leftOut.isEmpty {
            let kinds = files.leftOut.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            report.warnings.append("\(files.leftOut.values.reduce(0, +)) file(s) left out that are no photo or clip by their name (\(kinds))")
        }

        // Grouped by day, in time order; what is in the diary already, or twice in the import, is left out.
        let known = try await stores.photos.hashes(family: family)
        var firstOf: [String: String] = [:]
        var days: [SolarDate: [Surveyed]] = [:]
        for item in surveyed.sorted(by: { ($0.time, $0.file.label) < ($1.time, $1.file.label) }) {
            report.count("photos")
            if let first = firstOf[item.media.sha256] {
                report.duplicates["photos", default: 0] += 1
                report.warnings.append("\(item.file.label): the same file as \(first); taken once")
                continue
            }
            firstOf[item.media.sha256] = item.file.label
            if known.contains(item.media.sha256) {
                report.duplicates["photos", default: 0] += 1
                continue
            }
            days[item.time.date, default: []].append(item)
        }
        let order = days.keys.sorted()
        var existing: [SolarDate: DaySummary] = [:]
        if let first = order.first, let last = order.last {
            existing = try await stores.entries.days(family: family, from: first, through: last)
        }
        report.days = order.map { day in
            let items = days[day] ?? []
            let clips = items.count { $0.media.isVideo }
            return ImportReport.Day(date: day.iso, photos: items.count - clips, clips: clips, entriesThatDay: existing[day]?.entries ?? 0)
        }
        if dryRun {
            report.added["entries"] = order.count
            report.added["photos"] = order.reduce(0) { $0 + (days[$1]?.count ?? 0) }
            return report
        }

        let bar = TerminalProgress(total: order.reduce(0) { $0 + (days[$1]?.count ?? 0) }, label: "가져오는 중")
        defer { bar.finish() }
        var done = 0
        for day in order {
            let items = days[day] ?? []
            try await importDay(items, files: files, stores: stores, storage: storage, family: family, children: children, now: now,
                                language: language, report: &report)
            done += items.count
            bar.update(done)
        }
        return report
    }

    /// Reads each file once for its hash, time and place; the files that cannot be taken are named with why.
    private static func survey(_ files: PhotoFiles, storage: any PhotoStorage, family: FamilyID, now: Date) throws -> ([Surveyed], [String]) {
        let intake = try PhotoIntake(storage: storage, family: family, now: now, dryRun: true)
        var surveyed: [Surveyed] = []
        var refused: [String] = []
        let bar = TerminalProgress(total: files.files.count, label: "살펴보는 중")
        defer { bar.finish() }
        for (index, file) in files.files.enumerated() {
            bar.update(index)
            let upload = try intake.stage()
            let media: SurveyedMedia
            do {
                try files.fill(upload, from: file)
                media = try intake.survey(upload)
            } catch {
                upload.abandon()
                refused.append("\(file.label): \(error); left out")
                continue
            }
            let taken = media.taken.flatMap { try? LocalDateTime(iso: $0.local.prefix(16)) }
            guard let time = taken ?? file.modified.flatMap({ try? LocalDateTime(iso: $0.prefix(16)) }) else {
                refused.append("\(file.label): says nowhere when it was taken; left out")
                continue
            }
            surveyed.append(Surveyed(file: file, media: media, time: time, offset: taken == nil ? nil : media.taken?.offset))
        }
        bar.update(files.files.count)
        return (surveyed, refused)
    }

    /// One day: its files staged and checked (several at a time), stored, and its entry written with them in one
    /// transaction. Whatever this day stored that no row took is removed again.
    private static func importDay(
        _ items: [Surveyed], files: PhotoFiles, stores: DiaryStores, storage: any PhotoStorage, family: FamilyID, children: [ChildID],
        now: Date, language: Language, report: inout ImportReport
    ) async throws {
        let intake = try PhotoIntake(storage: storage, family: family, now: now)
        var written = false
        do {
            let (answers, unreadable) = try await ImportRun.onOwnThread { () throws -> ([(Surveyed, Result<Photo, PhotoError>)], [String]) in
                var staged: [(item: Surveyed, file: PhotoIntake.Staged)] = []
                var unreadable: [String] = []
                for item in items {
                    let upload = try intake.stage()
                    do {
                        try files.fill(upload, from: item.file)
                        staged.append((item, PhotoIntake.Staged(upload: upload)))
                    } catch {
                        upload.abandon()
                        unreadable.append("\(item.file.label): \(error); left out")
                    }
                }
                return (Array(zip(staged.map(\.item), intake.check(staged.map(\.file)))), unreadable)
            }
            report.skipped += unreadable
            var photos: [Photo] = []
            var read: [Surveyed] = []
            for (item, answer) in answers {
                switch answer {
                case .success(let photo):
                    photos.append(photo)
                    read.append(item)
                case .failure(let error): report.skipped.append("\(item.file.label): \(error); left out")
                }
            }
            guard let first = read.first, !photos.isEmpty else {
                await intake.settle(referenced: try? await stores.photos.referencedHashes())
                return
            }
            let place = photos.first { $0.latitude != nil && $0.longitude != nil }.flatMap {
                try? Place(name: nil, latitude: $0.latitude, longitude: $0.longitude)
            }
            let content = try EntryContent(
                title: title(photos, language: language), body: "", date: first.time, timeZone: zoneName(offset: first.offset, at: first.time),
                childIDs: children, tags: [tag], place: place)
            var batch = ImportBatch()
            batch.entries = [.init(sourceKey: "day:\(first.time.date.iso):\(photos[0].sha256)", content: content, photos: photos.map(\.id))]
            batch.photos = intake.photos
            try await intake.place()
            let outcome = try await stores.imports.importBatch(batch, family: family, source: source, dryRun: false)
            report.record(outcome)
            written = outcome.added["entries"] == 1
        } catch {
            await intake.settle(referenced: try? await stores.photos.referencedHashes())
            throw error
        }
        // Written: every file this day placed has its row (nothing of the day was in the diary before).
        await intake.settle(referenced: written ? Set(intake.photos.map(\.sha256)) : try? await stores.photos.referencedHashes())
    }

    /// "사진 3장 · 동영상 1개" / "3 photos · 1 clip".
    static func title(_ photos: [Photo], language: Language) -> String {
        let clips = photos.count { $0.video != nil }
        let stills = photos.count - clips
        var parts: [String] = []
        switch language {
        case .korean:
            if stills > 0 { parts.append("사진 \(stills)장") }
            if clips > 0 { parts.append("동영상 \(clips)개") }
        case .english:
            if stills > 0 { parts.append(stills == 1 ? "1 photo" : "\(stills) photos") }
            if clips > 0 { parts.append(clips == 1 ? "1 clip" : "\(clips) clips") }
        }
        return parts.joined(separator: " · ")
    }

    /// The entry's time zone: the diary's (Asia/Seoul) when the camera recorded no offset or the diary's own for that
    /// day; else the fixed zone of the offset (`Etc/GMT-7` is UTC+7: the IANA names count the other way), so an
    /// entry of a trip shows the time on the clock where it was taken.
    static func zoneName(offset: String?, at time: LocalDateTime) -> String {
        let diary = EntryContent.defaultTimeZone
        guard let offset, let seconds = offsetSeconds(offset) else { return diary }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? .current
        let noon = calendar.date(from: DateComponents(year: time.date.year, month: time.date.month, day: time.date.day, hour: 12))
        if let noon, TimeZone(identifier: diary)?.secondsFromGMT(for: noon) == seconds { return diary }
        guard seconds % 3600 == 0, abs(seconds) <= 14 * 3600 else { return diary }
        let hours = seconds / 3600
        return hours == 0 ? "UTC" : "Etc/GMT\(hours > 0 ? "-" : "+")\(abs(hours))"
    }

    /// `+09:00` → 32400; nil for anything else.
    static func offsetSeconds(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        guard bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"), bytes[3] == UInt8(ascii: ":"),
            [1, 2, 4, 5].allSatisfy({ digits.contains(bytes[$0]) })
        else { return nil }
        let hours = Int(bytes[1] - digits.lowerBound) * 10 + Int(bytes[2] - digits.lowerBound)
        let minutes = Int(bytes[4] - digits.lowerBound) * 10 + Int(bytes[5] - digits.lowerBound)
        guard hours <= 14, minutes < 60 else { return nil }
        return (bytes[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
    }
}
