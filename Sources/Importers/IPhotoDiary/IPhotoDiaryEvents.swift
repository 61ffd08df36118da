import Diary
import Foundation
import KoreanCalendar
import Persistence

/// EventData, TreatmentData, VaccinationData and AnniversaryData rows.
extension IPhotoDiaryImport.Reader {
    mutating func readEvents() throws {
        for record in try store.records("ZEVENTDATA") {
            report.count("events")
            let title = record.string("ZEVENTNAME") ?? record.string("ZEVENTMEMO").map { Validate.prefix($0, scalars: 50) } ?? "일정"
            if isDerivedMilestone(title) {
                report.skip("\(record.place): '\(title)' is a milestone Saessak works out itself", "\(record.place): '\(title)'은(는) 새싹이 스스로 챙기는 날입니다")
                continue
            }
            guard let stamp = try record.localDate("ZEVENTDATE") ?? record.localDate("ZSTARTDATE") else {
                report.skip("\(record.place): '\(title)' has no date", "\(record.place): '\(title)'에 날짜가 없어 가져오지 않았습니다")
                continue
            }
            let notes = [record.string("ZEVENTMEMO"), record.string("ZLOCATION").map { "장소: \($0)" }].compactMap { $0 }
            for childID in try owners(record, what: report.say("event '\(title)' (\(stamp.date.iso))", "일정 '\(title)' (\(stamp.date.iso))")) {
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
                report.skip("\(record.place): visit '\(title)' has no date", "\(record.place): 진료 '\(title)'에 날짜가 없어 가져오지 않았습니다")
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
            for childID in try owners(record, what: report.say("visit '\(title)' (\(stamp.date.iso))", "진료 '\(title)' (\(stamp.date.iso))")) {
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
                report.skip("\(record.place): '\(title)' has no date", "\(record.place): '\(title)'에 날짜가 없어 가져오지 않았습니다")
                continue
            }
            let notes = [record.string("ZVACCINDESCIPRTION"), record.string("ZVACCINATIONLOC").map { "장소: \($0)" }].compactMap { $0 }
            for childID in try owners(record, what: report.say("vaccination '\(title)' (\(stamp.date.iso))", "예방접종 '\(title)' (\(stamp.date.iso))")) {
                let details = try validated(record, "ZVACCINNAME") {
                    try EventDetails(
                        childID: childID, kind: .hospital, title: title, date: stamp.date, time: clock(stamp.time),
                        notes: notes.isEmpty ? nil : notes.joined(separator: "\n"), hospital: record.string("ZVACCINATIONLOC"))
                }
                batch.events.append(.init(sourceKey: key(record) + "/\(childID)", details: details))
            }
            report.warn(
                "\(record.place): '\(title)' imported as a hospital event; record the dose in 예방접종 to count it",
                "\(record.place): '\(title)'을(를) 병원 일정으로 가져왔습니다 — 접종으로 세려면 예방접종에 기록하세요")
        }
    }

    /// AnniversaryData rows (the app never wrote any, but a store may have some).
    mutating func readStoredAnniversaries() throws {
        for record in try store.records("ZANNIVERSARYDATA") {
            report.count("anniversaries")
            guard let name = record.string("ZANNIVERSARYNAME"), let stamp = try record.localDate("ZANNIVERSARYDATE") else {
                report.skip("\(record.place): an anniversary without a name or date", "\(record.place): 이름이나 날짜가 없는 기념일이어서 가져오지 않았습니다")
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
}
