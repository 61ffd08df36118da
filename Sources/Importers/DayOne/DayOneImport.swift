import Diary
import Foundation
import Persistence
import Photos
import KoreanCalendar
import ZIPReading

/// `saessak import dayone`: a Day One JSON export — a ZIP with one JSON file per journal (`Journal.json`, …) and a
/// `photos/` folder whose files are named by their MD5 and referenced from the text as `dayone-moment://ID`.
public enum DayOneImport {
    public static let source = "dayone"
    /// Day One's star becomes this tag.
    public static let starredTag = "즐겨찾기"

    public static func read(
        export url: URL, children: [ChildID], family: FamilyID, intake: PhotoIntake, report: inout ImportReport,
        progress: (Int) -> TerminalProgress? = { _ in nil }
    ) throws -> ImportBatch {
        let file = url.lastPathComponent
        let archive = try ImportArchive.open(url)
        var journals: [SourceArchive.Member] = []
        // Photos and clips by folder and MD5: `photos/<md5>` and `videos/<md5>`.
        var photoFiles: [String: SourceArchive.Member] = [:]
        for entry in archive.members where entry.isFile && !entry.path.hasPrefix("__MACOSX/") {
            let name = entry.name
            if name.lowercased().hasSuffix(".json") {
                journals.append(entry)
            } else if let folder = entry.path.split(separator: "/").dropLast().last, folder == "photos" || folder == "videos" {
                photoFiles["\(folder)/" + (name as NSString).deletingPathExtension.lowercased()] = entry
            }
        }
        guard !journals.isEmpty else { throw ImportFailure(
                "\(file): no journal in the export (expected Journal.json)", korean: "\(file): 내보낸 파일에 일기장이 없습니다 (Journal.json이 있어야 합니다)") }
        // Entries are read in order and their photos' bytes staged as they come, each handed to a checking line that
        // decodes them (most of an import's time) on the other cores meanwhile; then given to their entries.
        var read: [(item: ImportBatch.EntryItem, place: String, media: [StagedMedia])] = []
        let line = intake.checkAhead()
        var reading = true
        defer { if reading { line.abandon() } }
        for journal in journals.sorted(by: { $0.path < $1.path }) {
            let entries = try decode(journal, in: archive, file: file)
            report.files += 1
            let bar = progress(entries.count)
            defer { bar?.finish() }
            for (index, entry) in entries.enumerated() {
                bar?.update(index)
                report.count("entries")
                let place = report.say("\(journal.path): entry \(index + 1)", "\(journal.path): \(index + 1)번째 일기")
                    + (entry.uuid.map { " (\($0))" } ?? "")
                if let (item, media) = try item(
                    entry, place: place, children: children, archive: archive, photoFiles: photoFiles, intake: intake, report: &report)
                {
                    media.forEach { line.add($0.staged) }
                    read.append((item, place, media))
                }
            }
        }
        reading = false
        var checked = line.finish()[...]
        var batch = ImportBatch()
        for (item, place, media) in read {
            var photos: [PhotoID] = []
            for staged in media {
                guard let answer = checked.popFirst() else { break }
                switch answer {
                case .success(let photo): photos.append(photo.id)
                case .failure(let error):
                    report.warn(
                        "\(place): \(staged.kind) \(staged.path) cannot be read (\(error)); left out",
                        "\(place): \(Self.korean(staged.kind)) \(staged.path)을(를) 읽을 수 없어 가져오지 않았습니다 (\(error))")
                }
            }
            batch.entries.append(.init(sourceKey: item.sourceKey, content: item.content, photos: photos))
        }
        report.count("photos", intake.photos.count)
        return batch
    }

    /// A photo or clip of an entry, its bytes staged, waiting to be checked.
    struct StagedMedia {
        let staged: PhotoIntake.Staged
        let kind: String
        let path: String
    }

    /// A journal's JSON is read whole: at most this much of it (10,000 entries take about 15 MB).
    static let maxJournalBytes: UInt64 = 128 << 20

    static func decode(_ journal: SourceArchive.Member, in archive: SourceArchive, file: String) throws -> [DayOneEntry] {
        let data = try ImportArchive.data(of: journal, in: archive, maxBytes: maxJournalBytes)
        do {
            return try JSONDecoder().decode(DayOneJournal.self, from: data).entries
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context),
            let DecodingError.keyNotFound(_, context), let DecodingError.dataCorrupted(context)
        {
            throw ImportFailure(
                "\(journal.path): \(path(context.codingPath)): \(context.debugDescription)",
                korean: "\(journal.path): \(path(context.codingPath)): Day One 일기장의 형식이 아닙니다 (\(context.debugDescription))")
        } catch {
            throw ImportFailure("\(journal.path): not a Day One journal (\(error))", korean: "\(journal.path): Day One 일기장이 아닙니다 (\(error))")
        }
    }

    /// `entries[3].photos[0].md5` as "entry 4, photos[0].md5".
    static func path(_ keys: [any CodingKey]) -> String {
        var parts: [String] = []
        for (index, key) in keys.enumerated() {
            if index == 1, keys[0].stringValue == "entries", let number = key.intValue {
                parts = ["entry \(number + 1)"]
            } else if let number = key.intValue {
                parts.append("[\(number)]")
            } else {
                parts.append(key.stringValue)
            }
        }
        return parts.isEmpty ? "the top level" : parts.joined(separator: ", ")
    }

    static func item(
        _ entry: DayOneEntry, place: String, children: [ChildID], archive: SourceArchive, photoFiles: [String: SourceArchive.Member],
        intake: PhotoIntake, report: inout ImportReport
    ) throws -> (ImportBatch.EntryItem, [StagedMedia])? {
        guard let uuid = entry.uuid, !uuid.isEmpty else {
            report.skip("\(place): no uuid, so a second import could not tell it apart", "\(place): uuid가 없어 다시 가져올 때 구별할 수 없으므로 가져오지 않았습니다")
            return nil
        }
        guard let text = entry.creationDate, let instant = instant(text) else {
            throw ImportFailure(
                "\(place), creationDate: '\(entry.creationDate ?? "")' is not an ISO 8601 date",
                korean: "\(place), creationDate: '\(entry.creationDate ?? "")'은(는) ISO 8601 날짜가 아닙니다")
        }
        var zoneName = entry.timeZone ?? EntryContent.defaultTimeZone
        if !EntryContent.isTimeZone(zoneName) {
            report.warn(
                "\(place): time zone '\(zoneName)' is unknown; used \(EntryContent.defaultTimeZone)",
                "\(place): 시간대 '\(zoneName)'을(를) 알 수 없어 \(EntryContent.defaultTimeZone)(으)로 가져왔습니다")
            zoneName = EntryContent.defaultTimeZone
        }
        let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: zoneName)!, from: instant)
        guard let date = try? SolarDate(year: parts.year!, month: parts.month!, day: parts.day!),
            let time = try? ClockTime(hour: parts.hour!, minute: parts.minute!)
        else { throw ImportFailure(
            "\(place), creationDate: '\(text)' is outside the calendar", korean: "\(place), creationDate: '\(text)'은(는) 달력에 없는 날짜입니다") }
        let (title, body) = titleAndBody(entry.text ?? "", date: date)

        var tags: [String] = []
        for tag in entry.tags ?? [] {
            if let name = try? Tag.normalisedName(tag) {
                tags.append(name)
            } else {
                report.warn("\(place): tag '\(tag)' cannot be a tag; left out", "\(place): '\(tag)'은(는) 태그가 될 수 없어 가져오지 않았습니다")
            }
        }
        if entry.starred == true { tags.append(starredTag) }

        let placeValue = Self.place(of: entry.location, at: place, report: &report)
        let weather = entry.weather.flatMap { weather -> String? in
            let parts = [weather.conditionsDescription, weather.temperatureCelsius.flatMap(Self.celsius)].compactMap { $0 }
            return parts.isEmpty ? nil : parts.joined(separator: " ")
        }

        // Photos, then clips, each in Day One's order within the entry.
        var staged: [StagedMedia] = []
        let media = [("photos", "photo", entry.photos ?? []), ("videos", "video", entry.videos ?? [])].flatMap { folder, kind, items in
            items.enumerated().sorted { ($0.element.orderInEntry ?? $0.offset, $0.offset) < ($1.element.orderInEntry ?? $1.offset, $1.offset) }
                .map { (folder: folder, kind: kind, item: $0.element) }
        }
        for (folder, kind, photo) in media {
            let name = photo.identifier ?? photo.md5 ?? "?"
            guard let md5 = photo.md5?.lowercased(), let file = photoFiles["\(folder)/\(md5)"] else {
                report.warn(
                    "\(place): \(kind) \(name) is not in the export's \(folder) folder; left out",
                    "\(place): \(Self.korean(kind)) \(name)이(가) 내보내기의 \(folder) 폴더에 없어 가져오지 않았습니다")
                continue
            }
            do {
                let upload = try intake.stage()
                do {
                    try archive.read(file) { bytes in try upload.write(untyped: bytes) }
                    _ = try upload.finish()
                } catch {
                    upload.abandon()
                    throw error
                }
                staged.append(StagedMedia(staged: PhotoIntake.Staged(upload: upload), kind: kind, path: file.path))
            } catch {
                report.warn(
                    "\(place): \(kind) \(file.path) cannot be read (\(error)); left out",
                    "\(place): \(Self.korean(kind)) \(file.path)을(를) 읽을 수 없어 가져오지 않았습니다 (\(error))")
            }
        }

        do {
            let content = try EntryContent(
                title: title, body: body, date: LocalDateTime(date: date, time: time), timeZone: zoneName, childIDs: children,
                tags: tags, place: placeValue, weather: weather.map { Validate.prefix($0, scalars: EntryContent.maxWeatherLength) })
            return (.init(sourceKey: uuid, content: content), staged)
        } catch {
            throw ImportFailure("\(place): \(error)", korean: "\(place): 가져올 수 없는 값이 있습니다 (\(error))")
        }
    }

    /// A medium's kind ("photo", "video") as the Korean report names it.
    static func korean(_ kind: String) -> String { kind == "video" ? "동영상" : "사진" }

    /// The place as "서울대공원, 과천시" (the first two distinct names) with its coordinates; an unreadable one is
    /// reported and left out.
    static func place(of location: DayOneEntry.Location?, at place: String, report: inout ImportReport) -> Place? {
        guard let location else { return nil }
        var names: [String] = []
        for name in [location.placeName, location.localityName, location.administrativeArea, location.country] {
            if let name = name?.trimmingCharacters(in: .whitespaces), !name.isEmpty, !names.contains(name) { names.append(name) }
        }
        let hasCoordinates = location.latitude != nil && location.longitude != nil
        guard hasCoordinates || !names.isEmpty else { return nil }
        do {
            return try Place(
                name: names.isEmpty ? nil : names.prefix(2).joined(separator: ", "), latitude: hasCoordinates ? location.latitude : nil,
                longitude: hasCoordinates ? location.longitude : nil)
        } catch {
            report.warn("\(place): the location cannot be read; left out", "\(place): 위치를 읽을 수 없어 가져오지 않았습니다")
            return nil
        }
    }

    /// "22℃"; nothing for a temperature no weather has (a 10³⁰⁰ degree export once trapped the conversion).
    static func celsius(_ value: Double) -> String? {
        guard (-100.0...100.0).contains(value), let degrees = Int(exactly: value.rounded()) else { return nil }
        return "\(degrees)℃"
    }

    static func instant(_ text: String) -> Date? {
        (try? Date(text, strategy: plainISO8601)) ?? (try? Date(text, strategy: fractionalISO8601))
    }

    static let plainISO8601 = Date.ISO8601FormatStyle()
    static let fractionalISO8601 = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// The first line is the title (Day One shows it so; a leading `#` is dropped); the rest is the body. Photo
    /// references leave the text (the photos come with the entry) and Day One's backslash escapes are undone.
    /// Each pattern runs only on text that holds what it looks for: Foundation's regular expressions, made anew for
    /// every call, were a quarter of reading an export. Its bytes are enough to tell: a `\r` before `\n` makes one
    /// character of the two, and `\n{3,}` still matches there.
    static func titleAndBody(_ markdown: String, date: SolarDate) -> (String, String) {
        var text = markdown
        if ByteSearch.contains("dayone-moment:", in: text) {
            text = text.replacingOccurrences(of: #"!\[[^\]]*\]\(dayone-moment:/{1,2}[^)]*\)"#, with: "", options: .regularExpression)
        }
        if ByteSearch.contains("\\", in: text) {
            text = text.replacingOccurrences(of: #"\\([\\`*_{}\[\]()#+\-.!>|~])"#, with: "$1", options: .regularExpression)
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while let first = lines.first, first.trimmingCharacters(in: .whitespaces).isEmpty { lines.removeFirst() }
        guard let first = lines.first else { return ("\(date.year)년 \(date.month)월 \(date.day)일", "") }
        lines.removeFirst()
        var title = first.trimmingCharacters(in: .whitespaces)
        while title.hasPrefix("#") { title.removeFirst() }
        title = title.trimmingCharacters(in: .whitespaces)
        if title.isEmpty { title = "\(date.year)년 \(date.month)월 \(date.day)일" }
        if title.unicodeScalars.count > EntryContent.maxTitleLength {
            lines.insert(first, at: 0)
            title = Validate.prefix(title, scalars: 60) + "…"
        }
        var body = lines.joined(separator: "\n")
        if ByteSearch.contains("\n\n\n", in: body) { body = body.replacingOccurrences(of: #"\n{3,}"#, with: "\n\n", options: .regularExpression) }
        body = body.trimmingCharacters(in: .whitespacesAndNewlines)
        return (title, body)
    }
}
