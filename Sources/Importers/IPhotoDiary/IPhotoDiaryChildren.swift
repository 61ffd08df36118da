import Diary
import Foundation
import KoreanCalendar
import Persistence

/// ChildData rows: the profile, the birth date by the app's rules, the profile photo and the birth measurements.
extension IPhotoDiaryImport.Reader {
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
        let time = stamp.flatMap { clock($0.time) }
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
}
