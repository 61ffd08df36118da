import Diary
import DiaryStore
import Foundation
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
    ) throws -> ImportStore.Batch {
        let store = try CoreDataStore(url: url)
        var reader = Reader(store: store, existing: existing, family: family, now: now, intake: intake)
        try reader.readChildren()
        try reader.readDiaries(progress: progress)
        try reader.readEvents()
        try reader.readTreatments()
        try reader.readVaccinations()
        try reader.readStoredAnniversaries()
        report.files = 1
        if let plist {
            reader.batch.anniversaries += try AnnData.items(from: plist, report: &reader.report)
            report.files += 1
        }
        report.found.merge(reader.report.found, uniquingKeysWith: +)
        report.duplicates.merge(reader.report.duplicates, uniquingKeysWith: +)
        report.skipped += reader.report.skipped
        report.warnings += reader.report.warnings
        report.count("photos", intake.photos.count)
        return reader.batch
    }

    private struct Reader {
        let store: CoreDataStore
        let existing: [Child]
        let family: FamilyID
        let now: Date
        let intake: PhotoIntake
        var batch = ImportStore.Batch()
        var report = ImportReport(source: IPhotoDiaryImport.source, dryRun: false)
        /// Z_PK of ChildData → the child's ID and name.
        var children: [Int64: (id: ChildID, name: String)] = [:]

        init(store: CoreDataStore, existing: [Child], family: FamilyID, now: Date, intake: PhotoIntake) {
            self.store = store
            self.existing = existing
            self.family = family
            self.now = now
            self.intake = intake
        }

        func key(_ record: Record) -> String { "\(store.identity)/\(record.table)/\(record.pk)" }

        // MARK: Children

        mutating func readChildren() throws {
            let images = try store.records("ZIMAGE", without: ["ZIMAGE"])
            for record in try store.records("ZCHILDDATA", without: ["ZTHUMBNAILIMAGE"]) {
                report.count("children")
                let name = record.string("ZCHILDNAME") ?? record.string("ZNICKNAME") ?? "아이 \(record.pk)"
                if record.string("ZCHILDNAME") == nil { report.warnings.append("\(record.place): no name; imported as '\(name)'") }
                let (birthDate, birthTime) = try birth(record, name: name)
                var residentNumber: ResidentNumber?
                if let text = record.string("ZIDNUM") {
                    // The number itself never goes into the report.
                    do { residentNumber = try ResidentNumber(text) } catch {
                        report.warnings.append("\(record.place) (\(name)): ZIDNUM is not a valid 주민등록번호; left out")
                    }
                }
                if record.string("ZDOCTOR") != nil {
                    report.warnings.append("\(record.place) (\(name)): the doctor at birth has no place in a profile; left out")
                }
                let sex: Sex? = record.int("ZGENDER").map { $0 == 0 ? .male : .female }
                let profile = try validated(record, "ZCHILDNAME") {
                    try ChildProfile(
                        name: name, nickname: record.string("ZNICKNAME"), birthDate: birthDate, birthTime: birthTime, sex: sex,
                        birthplace: record.string("ZLOCATION"), hospital: record.string("ZHOSPITAL"), residentNumber: residentNumber)
                }
                if let same = existing.first(where: { $0.profile.name == name && $0.profile.birthDate == birthDate }) {
                    // Imported before, or entered by hand: the same child either way.
                    children[record.pk] = (same.id, name)
                    report.duplicates["children", default: 0] += 1
                    continue
                }
                // The full photo (Image, by either side of the relationship), else the thumbnail.
                let imagePK = record.int("ZIMAGE") ?? images.first(where: { $0.int("ZCHILDDATA") == record.pk })?.pk
                var photoID: PhotoID?
                if let imagePK, let data = try store.blob("ZIMAGE", column: "ZIMAGE", pk: imagePK) {
                    photoID = take(data, at: "ZIMAGE Z_PK=\(imagePK)")
                } else if let data = try store.blob("ZCHILDDATA", column: "ZTHUMBNAILIMAGE", pk: record.pk) {
                    photoID = take(data, at: "\(record.place) ZTHUMBNAILIMAGE")
                }
                let child = Child(familyID: family, profile: profile, photoID: photoID, createdAt: now, modifiedAt: now)
                children[record.pk] = (child.id, name)
                batch.children.append(.init(sourceKey: key(record), child: child, measurements: measurements(record, child: child)))
            }
        }

        /// The birth date by the app's rules: ZISLUNAR 0 = lunar (inverted; missing = solar); ZBIRTHDAY carries the
        /// lunar date's numbers for a lunar child; the strings are preferred when they agree.
        mutating func birth(_ record: Record, name: String) throws -> (BirthDate, ClockTime?) {
            let where_ = "\(record.place) (\(name))"
            let isLunar = record.int("ZISLUNAR") == 0
            let stamp = try record.localDate("ZBIRTHDAY")
            let time = stamp.flatMap { $0.time.hour == 0 && $0.time.minute == 0 ? nil : $0.time }
            let lunarText = yearMonthDay(record.string("ZBIRTHDAYLUNAR"))
            let solarText = yearMonthDay(record.string("ZBIRTHDAYSOLAR"))
            if !isLunar {
                guard let date = stamp?.date ?? solarText.flatMap({ try? SolarDate(year: $0.year, month: $0.month, day: $0.day) })
                else { throw ImportFailure("\(where_), ZBIRTHDAY: no birthday") }
                if let solarText, let stamp, (solarText.year, solarText.month, solarText.day) != (stamp.date.year, stamp.date.month, stamp.date.day) {
                    report.warnings.append(
                        "\(where_): ZBIRTHDAYSOLAR says \(solarText.year)-\(solarText.month)-\(solarText.day) but ZBIRTHDAY is \(stamp.date.iso) (the app converted a new child's birthday as lunar by mistake); used ZBIRTHDAY")
                }
                return (.solar(date), time)
            }
            guard let numbers = stamp.map({ ($0.date.year, $0.date.month, $0.date.day) }) ?? lunarText
            else { throw ImportFailure("\(where_), ZBIRTHDAY: no birthday") }
            if let lunarText, lunarText != numbers {
                report.warnings.append(
                    "\(where_): ZBIRTHDAYLUNAR says \(lunarText.year)-\(lunarText.month)-\(lunarText.day) but ZBIRTHDAY carries \(numbers.0)-\(numbers.1)-\(numbers.2); used ZBIRTHDAY")
            }
            var lunar: LunarDate
            do {
                lunar = try LunarDate(year: numbers.0, month: numbers.1, day: numbers.2)
                do {
                    _ = try SolarDate.from(lunar)
                } catch {
                    // Day 30 of a short month: only the leap month of that number can have it.
                    let leap = try LunarDate(year: numbers.0, month: numbers.1, day: numbers.2, isLeapMonth: true)
                    _ = try SolarDate.from(leap)
                    lunar = leap
                    report.warnings.append("\(where_): lunar \(numbers.1)/\(numbers.2) exists only in that year's leap month; imported as 윤\(numbers.1)월")
                }
            } catch {
                throw ImportFailure("\(where_), ZBIRTHDAY: lunar \(numbers.0)-\(numbers.1)-\(numbers.2) is not a date of the lunar calendar (\(error))")
            }
            if !lunar.isLeapMonth, (try? KoreanLunarCalendar.leapMonth(in: lunar.year)) == lunar.month {
                report.warnings.append(
                    "\(where_): born in lunar month \(lunar.month) of \(lunar.year), a year with a leap month \(lunar.month); the app could not say which, so the ordinary month was used — tick 윤달 in the profile if it was the leap month")
            }
            if let solarText, let solar = try? SolarDate.from(lunar),
                (solarText.year, solarText.month, solarText.day) != (solar.year, solar.month, solar.day)
            {
                report.warnings.append("\(where_): ZBIRTHDAYSOLAR (\(solarText.year)-\(solarText.month)-\(solarText.day)) does not match lunar \(lunar.iso) (solar \(solar.iso)); used the lunar date")
            }
            return (.lunar(lunar), time)
        }

        /// Height and weight at birth, as measurements on the birth day.
        mutating func measurements(_ record: Record, child: Child) -> [GrowthMeasurement] {
            guard let day = child.profile.birthDate.solarDate else { return [] }
            var list: [GrowthMeasurement] = []
            if let height = record.double("ZHEIGHT"), height > 0 {
                if let measurement = try? GrowthMeasurement(childID: child.id, kind: .height, value: height, unit: .centimetres, date: day) {
                    list.append(measurement)
                } else {
                    report.warnings.append("\(record.place), ZHEIGHT: \(height) cm is not a birth height; left out")
                }
            }
            if var weight = record.double("ZWEIGHT"), weight > 0 {
                if weight > 100 { weight /= 1000 }  // grams
                if let measurement = try? GrowthMeasurement(childID: child.id, kind: .weight, value: weight, unit: .kilograms, date: day) {
                    list.append(measurement)
                } else {
                    report.warnings.append("\(record.place), ZWEIGHT: \(weight) kg is not a birth weight; left out")
                }
            }
            report.count("measurements", list.count)
            return list
        }

        // MARK: Diaries

        mutating func readDiaries(progress makeProgress: (Int) -> TerminalProgress?) throws {
            let diaries = try store.records("ZDIARYDATA", without: ["ZTHUMBNAILIMAGE"])
            let progress = makeProgress(diaries.count)
            let images = try store.records("ZDIARYIMAGE", without: ["ZIMAGE"])
            let diaryPKs = Set(diaries.map(\.pk))
            var imagesOf: [Int64: [Record]] = [:]
            for image in images {
                guard let diary = image.int("ZDIARY"), diaryPKs.contains(diary) else {
                    report.skipped.append("\(image.place): a photo of no diary (orphan)")
                    continue
                }
                imagesOf[diary, default: []].append(image)
            }
            progress?.update(0)
            for (index, record) in diaries.enumerated() {
                defer { progress?.update(index + 1) }
                report.count("entries")
                guard let stamp = try record.localDate("ZWRITEDATE") ?? conditionDate(record) else {
                    report.skipped.append("\(record.place): no ZWRITEDATE or ZCONDITIONDATE; nothing to date the diary by")
                    continue
                }
                let body = record.string("ZCONTENT") ?? ""
                let title = record.string("ZTAG")
                    ?? body.split(separator: "\n").first.map { String($0.prefix(50)) }
                    ?? "\(stamp.date.year)년 \(stamp.date.month)월 \(stamp.date.day)일"
                var place: Place?
                let latitude = record.double("ZLATITUDE"), longitude = record.double("ZLONGITUDE")
                let hasCoordinates = latitude.map { $0 != 0 } == true && longitude.map { $0 != 0 } == true
                if hasCoordinates || record.string("ZREVERSEADDR") != nil {
                    place = try? Place(
                        name: record.string("ZREVERSEADDR"), latitude: hasCoordinates ? latitude : nil,
                        longitude: hasCoordinates ? longitude : nil)
                    if place == nil { report.warnings.append("\(record.place): the coordinates \(latitude ?? 0), \(longitude ?? 0) are not on Earth; left out") }
                }
                let weather = record.string("ZWEATHERDESC").map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
                var photos: [PhotoID] = []
                for image in imagesOf[record.pk] ?? [] {
                    guard let data = try store.blob("ZDIARYIMAGE", column: "ZIMAGE", pk: image.pk) else {
                        report.skipped.append("\(image.place): no image data")
                        continue
                    }
                    if let id = take(data, at: image.place, coordinates: coordinates(image)) { photos.append(id) }
                }
                if photos.isEmpty, let thumbnail = try store.blob("ZDIARYDATA", column: "ZTHUMBNAILIMAGE", pk: record.pk),
                    let id = take(thumbnail, at: "\(record.place) ZTHUMBNAILIMAGE")
                {
                    photos.append(id)
                    report.warnings.append("\(record.place): only the small thumbnail of its photo was left; imported that")
                }
                let childIDs = try owners(record, what: "diary '\(title)' (\(stamp.date.iso))")
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
            guard !all.isEmpty else { throw ImportFailure("\(store.fileName): \(record.place) has no child and the store has none") }
            report.warnings.append("\(record.place): \(what) belongs to no child (orphan); imported for every child")
            return all
        }

        // MARK: Events

        mutating func readEvents() throws {
            for record in try store.records("ZEVENTDATA") {
                report.count("events")
                let title = record.string("ZEVENTNAME") ?? record.string("ZEVENTMEMO").map { String($0.prefix(50)) } ?? "일정"
                if isDerivedMilestone(title) {
                    report.skipped.append("\(record.place): '\(title)' is a milestone Saessak works out itself")
                    continue
                }
                guard let stamp = try record.localDate("ZEVENTDATE") ?? record.localDate("ZSTARTDATE") else {
                    report.skipped.append("\(record.place): '\(title)' has no date")
                    continue
                }
                let notes = [record.string("ZEVENTMEMO"), record.string("ZLOCATION").map { "장소: \($0)" }].compactMap { $0 }
                for childID in try owners(record, what: "event '\(title)' (\(stamp.date.iso))") {
                    let details = try validated(record, "ZEVENTNAME") {
                        try EventDetails(
                            childID: childID, kind: .other, title: title, date: stamp.date, time: clock(stamp.time),
                            notes: notes.isEmpty ? nil : notes.joined(separator: "\n"))
                    }
                    batch.events.append(.init(sourceKey: key(record) + "/\(childID)", details: details))
                }
            }
        }

        /// "<name> 백일", "<name> 첫돌" (the app wrote them; Saessak derives milestones from the birth date).
        func isDerivedMilestone(_ title: String) -> Bool {
            let compact = title.replacingOccurrences(of: " ", with: "")
            return children.values.contains { compact == "\($0.name)백일" || compact == "\($0.name)첫돌" }
                || existing.contains { compact == "\($0.profile.name)백일" || compact == "\($0.profile.name)첫돌" }
        }

        /// Hospital visits (TreatmentData), with their prescription and hospital photos.
        mutating func readTreatments() throws {
            let prescriptions = try store.records("ZPRESCRIPTIONIMAGE", without: ["ZIMAGE"])
            let hospitalImages = try store.records("ZHOSPITALIMAGE", without: ["ZIMAGE"])
            for record in try store.records("ZTREATMENTDATA") {
                report.count("events")
                let title = record.string("ZTREATMENTSUBJECT") ?? record.string("ZHOSPITALNAME") ?? "진료"
                guard let stamp = try record.localDate("ZTREATMENTDATE") else {
                    report.skipped.append("\(record.place): visit '\(title)' has no date")
                    continue
                }
                var photos: [PhotoID] = []
                for image in prescriptions where image.int("ZTREATMENT") == record.pk {
                    if let data = try store.blob("ZPRESCRIPTIONIMAGE", column: "ZIMAGE", pk: image.pk), let id = take(data, at: image.place) {
                        photos.append(id)
                    }
                }
                let hospitalImage = record.int("ZHOSPITALIMAGE") ?? hospitalImages.first(where: { $0.int("ZTREATMENT") == record.pk })?.pk
                if let pk = hospitalImage, let data = try store.blob("ZHOSPITALIMAGE", column: "ZIMAGE", pk: pk),
                    let id = take(data, at: "ZHOSPITALIMAGE Z_PK=\(pk)")
                {
                    photos.append(id)
                }
                let notes = [
                    record.string("ZPRESCRIPTION").map { "처방: \($0)" }, record.string("ZDRUGSTORE").map { "약국: \($0)" },
                    record.string("ZHOSPITALADDRESS").map { "주소: \($0)" }, record.string("ZHOSPITALTEL").map { "전화: \($0)" },
                    record.int("ZTREATMENTCOUNT").map { "\($0)회차" },
                ].compactMap { $0 }
                for childID in try owners(record, what: "visit '\(title)' (\(stamp.date.iso))") {
                    let details = try validated(record, "ZTREATMENTSUBJECT") {
                        try EventDetails(
                            childID: childID, kind: .hospital, title: title, date: stamp.date, time: clock(stamp.time),
                            notes: notes.isEmpty ? nil : notes.joined(separator: "\n"), hospital: record.string("ZHOSPITALNAME"),
                            doctor: record.string("ZDOCTORNAME"), diagnosis: record.string("ZTREATMENTRESULT"))
                    }
                    batch.events.append(.init(sourceKey: key(record) + "/\(childID)", details: details, photos: photos))
                }
            }
        }

        /// Vaccinations (VaccinationData) as events: the names were free text, so they are not matched to the
        /// national schedule's doses.
        mutating func readVaccinations() throws {
            for record in try store.records("ZVACCINATIONDATA") {
                report.count("events")
                let name = record.string("ZVACCINNAME") ?? "예방접종"
                let title = "예방접종: \(name)" + (record.int("ZVACCINATIONCOUNT").map { " \($0)차" } ?? "")
                guard let stamp = try record.localDate("ZCOMPLETEDATE") ?? record.localDate("ZVACCINATIONDATE") else {
                    report.skipped.append("\(record.place): '\(title)' has no date")
                    continue
                }
                let notes = [record.string("ZVACCINDESCIPRTION"), record.string("ZVACCINATIONLOC").map { "장소: \($0)" }].compactMap { $0 }
                for childID in try owners(record, what: "vaccination '\(title)' (\(stamp.date.iso))") {
                    let details = try validated(record, "ZVACCINNAME") {
                        try EventDetails(
                            childID: childID, kind: .hospital, title: title, date: stamp.date, time: clock(stamp.time),
                            notes: notes.isEmpty ? nil : notes.joined(separator: "\n"), hospital: record.string("ZVACCINATIONLOC"))
                    }
                    batch.events.append(.init(sourceKey: key(record) + "/\(childID)", details: details))
                }
                report.warnings.append("\(record.place): '\(title)' imported as a hospital event; record the dose in 예방접종 to count it")
            }
        }

        /// AnniversaryData rows (the app never wrote any, but a store may have some).
        mutating func readStoredAnniversaries() throws {
            for record in try store.records("ZANNIVERSARYDATA") {
                report.count("anniversaries")
                guard let name = record.string("ZANNIVERSARYNAME"), let stamp = try record.localDate("ZANNIVERSARYDATE") else {
                    report.skipped.append("\(record.place): an anniversary without a name or date")
                    continue
                }
                let details = try validated(record, "ZANNIVERSARYNAME") {
                    try AnniversaryDetails(
                        name: name, calendar: .solar, month: stamp.date.month, day: stamp.date.day,
                        isHoliday: (record.int("ZHOLIDAYFLAG") ?? 0) != 0)
                }
                batch.anniversaries.append(.init(sourceKey: key(record), details: details))
            }
        }

        // MARK: Helpers

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
                report.warnings.append("\(place): the photo cannot be read (\(error)); left out")
                return nil
            }
        }

        /// A domain value built from a record; a refusal names the record and the field.
        func validated<T>(_ record: Record, _ column: String, _ make: () throws -> T) throws -> T {
            do {
                return try make()
            } catch let error as ValidationError {
                throw ImportFailure("\(store.fileName): \(record.place), \(column): \(error.description)")
            }
        }
    }
}
