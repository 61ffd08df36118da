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

    /// How far an import is, for a progress bar: files surveyed of all, then photos imported of all to import.
    public enum Stage: String, Sendable {
        case surveying, importing
    }
    public typealias Progress = @Sendable (_ stage: Stage, _ done: Int, _ total: Int) -> Void

    /// The language of the entries' titles ("사진 3장 · 동영상 1개", "3 photos · 1 clip").
    public enum Language: String, Sendable, CaseIterable {
        case korean = "ko", english = "en"
    }

    /// A photo or clip surveyed: where it is, what it is, and the wall-clock time it is filed under.
    struct Surveyed: Sendable {
        let file: PhotoFiles.File
        let media: SurveyedMedia
        /// When it was taken (`YYYY-MM-DDTHH:MM`), else when the file was last changed.
        var time: LocalDateTime
        /// The capture time's UTC offset, when the camera recorded one.
        let offset: String?
        /// Where its source says it was taken, when the file itself does not (a Takeout sidecar's place).
        let coordinates: (latitude: Double, longitude: Double)?
        /// Its Takeout sidecar's description, and the albums it is in.
        let description: String?
        var albums: [String]
        /// Sorts it among the photos of the same minute: its label, or for a Live Photo's clip its still's, so the
        /// clip comes right after its still.
        var order: String
        /// For a Live Photo's clip: its still's index in the survey's files.
        let liveStill: Int?
        let index: Int
    }

    /// Surveys `paths`, then (unless `dryRun`) imports their photos a day at a time for `children` — or, when
    /// `childrenByDay` is given (the review page's choices), for each day's own, a day without any left out. A day the
    /// diary has an entry on gets its photos added to that entry when `addToExisting` (every such day) or it is one of
    /// `addToDays` (the days ticked on the review page). A path that
    /// cannot be read stops the import before anything is written; a file that is no photo Saessak takes is named in
    /// the report's `skipped` with why, and the rest go on. A failure while writing a day stops the import with the
    /// days before it kept: run it again to go on.
    public static func run(
        paths: [String], stores: DiaryStores, storage: any PhotoStorage, family: FamilyID, children: [ChildID], now: Date,
        dryRun: Bool, language: Language = .korean, withEdited: Bool = false, addToExisting: Bool = false,
        childrenByDay: [SolarDate: [ChildID]]? = nil, addToDays: Set<SolarDate> = [], reportLanguage: Language = .english,
        maxFiles: Int? = nil, progress: Progress? = nil
    ) async throws -> ImportReport {
        let words = PhotoImportWords(language: reportLanguage)
        guard !children.isEmpty else { throw ImportFailure(
                "the family has no children yet: add one first (entries are about a child)",
                korean: "아직 아이가 없습니다: 먼저 아이를 추가해 주세요 (일기는 아이에 대한 것입니다)") }
        var report = ImportReport(source: paths.joined(separator: ", "), dryRun: dryRun, inKorean: reportLanguage == .korean)
        let zone = TimeZone(identifier: EntryContent.defaultTimeZone) ?? .current
        let (files, surveyed, refused, edited) = try await ImportRun.onOwnThread { stop throws -> (PhotoFiles, [Surveyed], [String], Int) in
            let files = try PhotoFiles(paths: paths, zone: zone)
            // Issue 66: a 2 MB ZIP of 20,000 one-byte photos kept a server busy for minutes.
            if let maxFiles, files.files.count > maxFiles {
                throw ImportFailure(
                    "\(paths.joined(separator: ", ")): more than \(maxFiles) photos and clips (\(files.files.count)): import them in parts, or with 'saessak import photos'",
                    korean: "사진과 동영상이 \(maxFiles)개보다 많습니다(\(files.files.count)개): 나누어 가져오거나 'saessak import photos'로 가져오세요")
            }
            let (surveyed, refused, edited) = try survey(
                files, storage: storage, family: family, now: now, zone: zone, withEdited: withEdited, words: words, progress: progress,
                stop: stop)
            return (files, surveyed, refused, edited)
        }
        report.files = files.files.count + files.sidecars.count
        report.skipped += refused
        if edited > 0 { report.warnings.append(words.edited(edited)) }
        if !files.leftOut.isEmpty {
            let kinds = files.leftOut.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            report.warnings.append(words.notMedia(files.leftOut.values.reduce(0, +), kinds: kinds))
        }

        // Grouped by day, in time order; what is in the diary already, or twice in the import, is left out (a copy's
        // albums go to the one kept: a Takeout has each photo of an album in its year's folder too).
        let known = try await stores.photos.hashes(family: family)
        var kept: [Surveyed] = []
        var keptAt: [String: Int] = [:]
        var copies = 0
        for item in surveyed.sorted(by: { ($0.time, $0.order) < ($1.time, $1.order) }) {
            report.count("photos")
            if let first = keptAt[item.media.sha256] {
                copies += 1
                kept[first].albums += item.albums.filter { !kept[first].albums.contains($0) }
                continue
            }
            keptAt[item.media.sha256] = kept.count
            kept.append(item)
        }
        if copies > 0 {
            report.duplicates["photos", default: 0] += copies
            report.warnings.append(words.copies(copies))
        }
        var days: [SolarDate: [Surveyed]] = [:]
        for item in kept {
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
        // A camera whose clock was never set files its photos years before the child was born: said, for the review.
        let births = try await Page.all { try await stores.children.list(family: family, after: $0, limit: $1) }
            .filter { children.contains($0.id) }.compactMap(\.profile.birthDate.solarDate)
        if let birth = births.min() {
            let early = order.filter { $0 < birth }
            if !early.isEmpty { report.warnings.append(words.beforeBirth(early.map(\.iso))) }
        }
        report.days = order.map { day in
            let items = days[day] ?? []
            let clips = items.count { $0.media.isVideo }
            return ImportReport.Day(
                date: day.iso, photos: items.count - clips, clips: clips, entriesThatDay: existing[day]?.entries ?? 0,
                intoEntry: (addToExisting || addToDays.contains(day)) && existing[day] != nil ? true : nil)
        }
        if dryRun {
            let joined = { (day: SolarDate) in (addToExisting || addToDays.contains(day)) && existing[day] != nil }
            let (entries, photos) = (order.count { !joined($0) }, order.reduce(0) { $0 + (days[$1]?.count ?? 0) })
            if entries > 0 { report.added["entries"] = entries }
            if photos > 0 { report.added["photos"] = photos }
            return report
        }

        let total = order.reduce(0) { $0 + (days[$1]?.count ?? 0) }
        let bar = TerminalProgress(total: total, label: "가져오는 중")
        defer { bar.finish() }
        var done = 0
        progress?(.importing, 0, total)
        let destination = Destination(stores: stores, storage: storage, family: family, now: now, language: language, words: words)
        for day in order {
            let items = days[day] ?? []
            let chosen = childrenByDay.map { $0[day] ?? [] } ?? children
            if !chosen.isEmpty {
                // The day's last entry, when its photos go into it (a day of many entries: the last, as the timeline shows it first).
                var into: EntryID?
                if addToExisting || addToDays.contains(day), existing[day] != nil {
                    into = try await stores.entries.list(family: family, filter: TimelineFilter(period: .day(day)), after: nil, limit: 1)
                        .items.first?.id
                }
                try await importDay(items, files: files, into: into, children: chosen, destination, report: &report)
            }
            done += items.count
            bar.update(done)
            progress?(.importing, done, total)
        }
        return report
    }

    /// Reads each file once for its hash, time and place, with what its sidecar says; the files that cannot be
    /// taken are named with why. Edited copies are counted and left out unless `withEdited`.
    private static func survey(
        _ files: PhotoFiles, storage: any PhotoStorage, family: FamilyID, now: Date, zone: TimeZone, withEdited: Bool, words: PhotoImportWords,
        progress: Progress?, stop: ImportRun.Stop
    ) throws -> (surveyed: [Surveyed], refused: [String], edited: Int) {
        let hints = PhotoHints.read(files)
        let intake = try PhotoIntake(storage: storage, family: family, now: now, dryRun: true)
        var surveyed: [Surveyed] = []
        var refused: [String] = []
        var edited = 0
        let bar = TerminalProgress(total: files.files.count, label: "살펴보는 중")
        defer { bar.finish() }
        for (index, file) in files.files.enumerated() {
            try stop.check()
            bar.update(index)
            progress?(.surveying, index, files.files.count)
            let hint = hints[index]
            if hint.editedCopyOf != nil, !withEdited {
                edited += 1
                continue
            }
            let upload = try intake.stage()
            let media: SurveyedMedia
            do {
                try files.fill(upload, from: file)
                media = try intake.survey(upload)
            } catch {
                upload.abandon()
                refused.append(words.refused(file.label, error))
                continue
            }
            // The camera's own clock first; then the sidecar's instant on the diary's clock; then the file's.
            let taken = media.taken.flatMap { try? LocalDateTime(iso: $0.local.prefix(16)) }
            let noted = hint.sidecar?.taken.flatMap { try? LocalDateTime(iso: PhotoFiles.wallClock($0, zone: zone).prefix(16)) }
            guard let time = taken ?? noted ?? file.modified.flatMap({ try? LocalDateTime(iso: $0.prefix(16)) }) else {
                refused.append(words.undated(file.label))
                continue
            }
            let place = hint.sidecar.flatMap { sidecar in sidecar.latitude.flatMap { latitude in sidecar.longitude.map { (latitude, $0) } } }
            surveyed.append(Surveyed(
                file: file, media: media, time: time, offset: taken == nil ? nil : media.taken?.offset,
                coordinates: media.latitude == nil ? place : nil, description: hint.sidecar?.description, albums: hint.albums,
                order: file.label, liveStill: hint.liveStill, index: index))
        }
        bar.update(files.files.count)
        // A Live Photo's clip is shown right after its still, whatever time the clip says.
        let byIndex = Dictionary(surveyed.map { ($0.index, ($0.time, $0.order)) }, uniquingKeysWith: { first, _ in first })
        for position in surveyed.indices {
            guard let still = surveyed[position].liveStill, let (time, order) = byIndex[still] else { continue }
            surveyed[position].time = time
            surveyed[position].order = order + "\u{1}"
        }
        return (surveyed, refused, edited)
    }

    /// Where an import's days go, and how their entries are made.
    struct Destination {
        let stores: DiaryStores
        let storage: any PhotoStorage
        let family: FamilyID
        let now: Date
        let language: Language
        let words: PhotoImportWords
    }

    /// One day: its files staged and checked (several at a time), stored, and its entry written with them in one
    /// transaction — or, `into` an entry the diary has that day, the photos added to it in one. Whatever this day
    /// stored that no row took is removed again.
    private static func importDay(
        _ items: [Surveyed], files: PhotoFiles, into existing: EntryID?, children: [ChildID], _ destination: Destination,
        report: inout ImportReport
    ) async throws {
        let (stores, family) = (destination.stores, destination.family)
        let intake = try PhotoIntake(storage: destination.storage, family: family, now: destination.now)
        var written = false
        do {
            let (answers, unreadable) = try await ImportRun.onOwnThread { () throws -> ([(Surveyed, Result<Photo, PhotoError>)], [String]) in
                // Each file is checked on the intake's line while the next is copied in.
                var staged: [Surveyed] = []
                var unreadable: [String] = []
                let line = intake.checkAhead(chunk: 2)
                var reading = true
                defer { if reading { line.abandon() } }
                for item in items {
                    let upload = try intake.stage()
                    do {
                        try files.fill(upload, from: item.file)
                        line.add(PhotoIntake.Staged(upload: upload, coordinates: item.coordinates))
                        staged.append(item)
                    } catch {
                        upload.abandon()
                        unreadable.append(destination.words.refused(item.file.label, error))
                    }
                }
                reading = false
                return (Array(zip(staged, line.finish())), unreadable)
            }
            report.skipped += unreadable
            var photos: [Photo] = []
            var read: [Surveyed] = []
            for (item, answer) in answers {
                switch answer {
                case .success(let photo):
                    photos.append(photo)
                    read.append(item)
                case .failure(let error): report.skipped.append(destination.words.refused(item.file.label, error))
                }
            }
            guard let first = read.first, !photos.isEmpty else {
                await intake.settle(referenced: try? await stores.photos.referencedHashes())
                return
            }
            if let existing {
                try await intake.place()
                let added = try await stores.photos.add(photos, family: family, entry: existing)
                report.added["photos", default: 0] += added.count
                await intake.settle(referenced: Set(intake.photos.map(\.sha256)))
                return
            }
            let place = photos.first { $0.latitude != nil && $0.longitude != nil }.flatMap {
                try? Place(name: nil, latitude: $0.latitude, longitude: $0.longitude)
            }
            let content = try EntryContent(
                title: title(photos, language: destination.language), body: body(read), date: first.time,
                timeZone: zoneName(offset: first.offset, at: first.time), childIDs: children, tags: tags(read), place: place)
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

    /// The day's tags: 가져옴 and the albums its photos are in, as many as an entry takes (an album name that is no
    /// tag — too long, or only a sign — is left out).
    static func tags(_ items: [Surveyed]) -> [String] {
        var names = [tag]
        var seen: Set<String> = [tag]
        for album in items.flatMap(\.albums) {
            guard names.count < EntryContent.maxTags, let name = try? Tag.normalisedName(album), seen.insert(name.lowercased()).inserted else { continue }
            names.append(name)
        }
        return names
    }

    /// The day's body: its photos' descriptions, a paragraph each, in the photos' order, each once.
    static func body(_ items: [Surveyed]) -> String {
        var seen: Set<String> = []
        var body = ""
        for description in items.compactMap(\.description) where seen.insert(description).inserted {
            let paragraph = (body.isEmpty ? "" : "\n\n") + description
            guard body.unicodeScalars.count + paragraph.unicodeScalars.count <= EntryContent.maxBodyLength else { break }
            body += paragraph
        }
        return body
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
