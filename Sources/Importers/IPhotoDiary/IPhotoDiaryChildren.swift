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
            if record.string("ZCHILDNAME") == nil {
                report.warn("\(record.place): no name; imported as '\(name)'", "\(record.place): 이름이 없어 '\(name)'(으)로 가져왔습니다")
            }
            let (birthDate, birthTime) = try birth(record, name: name)
            var residentNumber: ResidentNumber?
            if let text = record.string("ZIDNUM") {
                // The number itself never goes into the report.
                do { residentNumber = try ResidentNumber(text) } catch {
                    report.warn(
                        "\(record.place) (\(name)): ZIDNUM is not a valid 주민등록번호; left out",
                        "\(record.place) (\(name)): ZIDNUM이 올바른 주민등록번호가 아니어서 가져오지 않았습니다")
                }
            }
            if record.string("ZDOCTOR") != nil {
                report.warn(
                    "\(record.place) (\(name)): the doctor at birth has no place in a profile; left out",
                    "\(record.place) (\(name)): 출생 때의 의사는 프로필에 둘 곳이 없어 가져오지 않았습니다")
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
            else { throw ImportFailure("\(where_), ZBIRTHDAY: no birthday", korean: "\(where_), ZBIRTHDAY: 생일이 없습니다") }
            if let solarText, let stamp, (solarText.year, solarText.month, solarText.day) != (stamp.date.year, stamp.date.month, stamp.date.day) {
                report.warn(
                    "\(where_): ZBIRTHDAYSOLAR says \(solarText.year)-\(solarText.month)-\(solarText.day) but ZBIRTHDAY is \(stamp.date.iso) (the app converted a new child's birthday as lunar by mistake); used ZBIRTHDAY",
                    "\(where_): ZBIRTHDAYSOLAR는 \(solarText.year)-\(solarText.month)-\(solarText.day)인데 ZBIRTHDAY는 \(stamp.date.iso)입니다 (앱이 새 아이의 생일을 실수로 음력으로 바꿨습니다) — ZBIRTHDAY를 썼습니다")
            }
            return (.solar(date), time)
        }
        guard let numbers = stamp.map({ ($0.date.year, $0.date.month, $0.date.day) }) ?? lunarText
        else { throw ImportFailure("\(where_), ZBIRTHDAY: no birthday", korean: "\(where_), ZBIRTHDAY: 생일이 없습니다") }
        if let lunarText, lunarText != numbers {
            report.warn(
                "\(where_): ZBIRTHDAYLUNAR says \(lunarText.year)-\(lunarText.month)-\(lunarText.day) but ZBIRTHDAY carries \(numbers.0)-\(numbers.1)-\(numbers.2); used ZBIRTHDAY",
                "\(where_): ZBIRTHDAYLUNAR는 \(lunarText.year)-\(lunarText.month)-\(lunarText.day)인데 ZBIRTHDAY는 \(numbers.0)-\(numbers.1)-\(numbers.2)입니다 — ZBIRTHDAY를 썼습니다")
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
                report.warn(
                    "\(where_): lunar \(numbers.1)/\(numbers.2) exists only in that year's leap month; imported as 윤\(numbers.1)월",
                    "\(where_): 음력 \(numbers.1)월 \(numbers.2)일은 그해 윤달에만 있어 윤\(numbers.1)월로 가져왔습니다")
            }
        } catch {
            throw ImportFailure(
                "\(where_), ZBIRTHDAY: lunar \(numbers.0)-\(numbers.1)-\(numbers.2) is not a date of the lunar calendar (\(error))",
                korean: "\(where_), ZBIRTHDAY: 음력 \(numbers.0)년 \(numbers.1)월 \(numbers.2)일은 음력 달력에 없는 날짜입니다 (\(error))")
        }
        if !lunar.isLeapMonth, (try? KoreanLunarCalendar.leapMonth(in: lunar.year)) == lunar.month {
            report.warn(
                "\(where_): born in lunar month \(lunar.month) of \(lunar.year), a year with a leap month \(lunar.month); the app could not say which, so the ordinary month was used — tick 윤달 in the profile if it was the leap month",
                "\(where_): 음력 \(lunar.year)년 \(lunar.month)월생인데 그해에는 윤\(lunar.month)월도 있습니다. 앱에는 어느 달인지 없어 평달로 가져왔습니다 — 윤달이었다면 프로필에서 윤달을 고르세요")
        }
        if let solarText, let solar = try? SolarDate.from(lunar),
            (solarText.year, solarText.month, solarText.day) != (solar.year, solar.month, solar.day)
        {
            report.warn(
                "\(where_): ZBIRTHDAYSOLAR (\(solarText.year)-\(solarText.month)-\(solarText.day)) does not match lunar \(lunar.iso) (solar \(solar.iso)); used the lunar date",
                "\(where_): ZBIRTHDAYSOLAR(\(solarText.year)-\(solarText.month)-\(solarText.day))가 음력 \(lunar.iso)(양력 \(solar.iso))와 맞지 않아 음력 날짜를 썼습니다")
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
                report.warn(
                    "\(record.place), ZHEIGHT: \(height) cm is not a birth height; left out",
                    "\(record.place), ZHEIGHT: \(height) cm는 출생 키가 될 수 없어 가져오지 않았습니다")
            }
        }
        if var weight = record.double("ZWEIGHT"), weight > 0 {
            if weight > 100 { weight /= 1000 }  // grams
            if let measurement = try? GrowthMeasurement(childID: child.id, kind: .weight, value: weight, unit: .kilograms, date: day) {
                list.append(measurement)
            } else {
                report.warn(
                    "\(record.place), ZWEIGHT: \(weight) kg is not a birth weight; left out",
                    "\(record.place), ZWEIGHT: \(weight) kg은 출생 몸무게가 될 수 없어 가져오지 않았습니다")
            }
        }
        report.count("measurements", list.count)
        return list
    }
}
