import Diary
import Foundation
import Persistence
import Photos
import KoreanCalendar

/// `saessak import iphotodiary`: the 2010–2011 iPhone app's Core Data store (`NewIPhotoDiary.sqlite`) and its
/// `AnnData.plist`, per ../shared/spec/legacy-iphotodiary.md. Any model version: columns are read by name.
public enum IPhotoDiaryImport {
    public static let source = "iphotodiary"

    /// Reads the store into one batch. Photos go through `intake` (stored before the batch is written);
    /// `existing` are the family's children (one with the same name and birth date is the same child).
    public static func read(
        store url: URL, anniversaries plist: URL?, existing: [Child], family: FamilyID, now: Date, intake: PhotoIntake,
        report: inout ImportReport, progress: (Int) -> TerminalProgress? = { _ in nil }
    ) throws -> ImportBatch {
        // Never the upload itself: a plain copy of the columns read, made by a process of its own (UntrustedStore).
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-iphotodiary-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: copy) }
        try UntrustedStore.copy(url, to: copy, name: url.lastPathComponent)
        let store = try CoreDataStore(copy: copy, name: url.lastPathComponent)
        var reader = Reader(store: store, existing: existing, family: family, now: now, intake: intake, report: report)
        try reader.readChildren()
        try reader.readDiaries(progress: progress)
        try reader.readEvents()
        try reader.readTreatments()
        try reader.readVaccinations()
        try reader.readStoredAnniversaries()
        reader.report.files += 1
        if let plist {
            reader.batch.anniversaries += try AnnData.items(from: plist, report: &reader.report)
            reader.report.files += 1
        }
        reader.report.count("photos", intake.photos.count)
        report = reader.report
        return reader.batch
    }

    /// One store read into one batch; its parts are in IPhotoDiaryChildren.swift and IPhotoDiaryEvents.swift.
    struct Reader {
        let store: CoreDataStore
        let existing: [Child]
        let family: FamilyID
        let now: Date
        let intake: PhotoIntake
        var batch = ImportBatch()
        var report: ImportReport
        /// Z_PK of ChildData → the child's ID and name.
        var children: [Int64: (id: ChildID, name: String)] = [:]

        init(store: CoreDataStore, existing: [Child], family: FamilyID, now: Date, intake: PhotoIntake, report: ImportReport) {
            self.store = store
            self.report = report
            self.existing = existing
            self.family = family
            self.now = now
            self.intake = intake
        }

        func key(_ record: Record) -> String { "\(store.identity)/\(record.table)/\(record.pk)" }

        // MARK: Diaries

        mutating func readDiaries(progress makeProgress: (Int) -> TerminalProgress?) throws {
            let diaries = try store.records("ZDIARYDATA", without: ["ZTHUMBNAILIMAGE"])
            let progress = makeProgress(diaries.count)
            let images = try store.records("ZDIARYIMAGE", without: ["ZIMAGE"])
            let diaryPKs = Set(diaries.map(\.pk))
            var imagesOf: [Int64: [Record]] = [:]
            for image in images {
                guard let diary = image.int("ZDIARY"), diaryPKs.contains(diary) else {
                    report.skip("\(image.place): a photo of no diary (orphan)", "\(image.place): 어느 일기의 사진도 아니어서 가져오지 않았습니다")
                    continue
                }
                imagesOf[diary, default: []].append(image)
            }
            progress?.update(0)
            for (index, record) in diaries.enumerated() {
                defer { progress?.update(index + 1) }
                report.count("entries")
                guard let stamp = try record.localDate("ZWRITEDATE") ?? conditionDate(record) else {
                    report.skip(
                        "\(record.place): no ZWRITEDATE or ZCONDITIONDATE; nothing to date the diary by",
                        "\(record.place): ZWRITEDATE도 ZCONDITIONDATE도 없어 일기의 날짜를 알 수 없으므로 가져오지 않았습니다")
                    continue
                }
                let body = record.string("ZCONTENT") ?? ""
                let title = record.string("ZTAG")
                    ?? body.split(separator: "\n").first.map { Validate.prefix($0, scalars: 50) }
                    ?? "\(stamp.date.year)년 \(stamp.date.month)월 \(stamp.date.day)일"
                var place: Place?
                let latitude = record.double("ZLATITUDE"), longitude = record.double("ZLONGITUDE")
                let hasCoordinates = latitude.map { $0 != 0 } == true && longitude.map { $0 != 0 } == true
                if hasCoordinates || record.string("ZREVERSEADDR") != nil {
                    place = try? Place(
                        name: record.string("ZREVERSEADDR"), latitude: hasCoordinates ? latitude : nil,
                        longitude: hasCoordinates ? longitude : nil)
                    if place == nil {
                        report.warn(
                            "\(record.place): the coordinates \(latitude ?? 0), \(longitude ?? 0) are not on Earth; left out",
                            "\(record.place): 좌표 \(latitude ?? 0), \(longitude ?? 0)은(는) 지구 위가 아니어서 가져오지 않았습니다")
                    }
                }
                let weather = record.string("ZWEATHERDESC").map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
                var photos: [PhotoID] = []
                for image in imagesOf[record.pk] ?? [] {
                    guard let data = try store.blob("ZDIARYIMAGE", column: "ZIMAGE", pk: image.pk) else {
                        report.skip("\(image.place): no image data", "\(image.place): 사진 데이터가 없어 가져오지 않았습니다")
                        continue
                    }
                    if let id = take(data, at: image.place, coordinates: coordinates(image)) { photos.append(id) }
                }
                if photos.isEmpty, let thumbnail = try store.blob("ZDIARYDATA", column: "ZTHUMBNAILIMAGE", pk: record.pk),
                    let id = take(thumbnail, at: "\(record.place) ZTHUMBNAILIMAGE")
                {
                    photos.append(id)
                    report.warn(
                        "\(record.place): only the small thumbnail of its photo was left; imported that",
                        "\(record.place): 사진은 작은 미리보기만 남아 있어 그것을 가져왔습니다")
                }
                let childIDs = try owners(record, what: report.say("diary '\(title)' (\(stamp.date.iso))", "일기 '\(title)' (\(stamp.date.iso))"))
                let content = try validated(record, "ZCONTENT") {
                    try EntryContent(
                        title: title, body: body, date: LocalDateTime(date: stamp.date, time: stamp.time),
                        timeZone: "Asia/Seoul", childIDs: childIDs, tags: ["가져옴"], place: place, weather: weather)
                }
                batch.entries.append(.init(sourceKey: key(record), content: content, photos: photos))
            }
            progress?.finish()
        }

        func conditionDate(_ record: Record) -> (date: SolarDate, time: ClockTime)? {
            guard let numbers = yearMonthDay(record.string("ZCONDITIONDATE")),
                let date = try? SolarDate(year: numbers.year, month: numbers.month, day: numbers.day)
            else { return nil }
            return (date, try! ClockTime(hour: 12, minute: 0))
        }

        /// The children a record is about: its `ZCHILD`, or — an orphan — every child, listed in the report.
        mutating func owners(_ record: Record, what: String) throws -> [ChildID] {
            if let pk = record.int("ZCHILD"), let child = children[pk] { return [child.id] }
            let all = children.isEmpty ? existing.map(\.id) : children.values.map(\.id).sorted { $0.description < $1.description }
            guard !all.isEmpty else { throw ImportFailure(
                    "\(store.fileName): \(record.place) has no child and the store has none",
                    korean: "\(store.fileName): \(record.place)에 아이가 없고, 파일에도 아이가 없습니다") }
            report.warn(
                "\(record.place): \(what) belongs to no child (orphan); imported for every child",
                "\(record.place): \(what)은(는) 어느 아이의 것도 아니어서 모든 아이의 것으로 가져왔습니다")
            return all
        }

        // MARK: Helpers

        /// A time of day, unless it is midnight: the app stored 00:00 when no time was picked.
        func clock(_ time: ClockTime) -> ClockTime? { time.hour == 0 && time.minute == 0 ? nil : time }

        /// Where a DiaryImage was taken: its `ZLATITUDE`/`ZLONGITUDE` ("%f" strings in the last model, numbers in
        /// others; "0" = unknown).
        func coordinates(_ image: Record) -> (latitude: Double, longitude: Double)? {
            guard let latitude = image.double("ZLATITUDE"), let longitude = image.double("ZLONGITUDE"), latitude != 0 || longitude != 0,
                (-90...90).contains(latitude), (-180...180).contains(longitude)
            else { return nil }
            return (latitude, longitude)
        }

        /// A photo from a blob; a damaged one is reported and left out.
        mutating func take(_ data: Data, at place: String, coordinates: (latitude: Double, longitude: Double)? = nil) -> PhotoID? {
            do {
                return try intake.take(data, coordinates: coordinates).id
            } catch {
                report.warn("\(place): the photo cannot be read (\(error)); left out", "\(place): 사진을 읽을 수 없어 가져오지 않았습니다 (\(error))")
                return nil
            }
        }

        /// A domain value built from a record; a refusal names the record and the field.
        func validated<T>(_ record: Record, _ column: String, _ make: () throws -> T) throws -> T {
            do {
                return try make()
            } catch let error as ValidationError {
                throw ImportFailure(
                    "\(store.fileName): \(record.place), \(column): \(error.description)",
                    korean: "\(store.fileName): \(record.place), \(column): 가져올 수 없는 값입니다 (\(error.description))")
            }
        }
    }
}
