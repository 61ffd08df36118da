import Diary
import Foundation
import KoreanCalendar
import Persistence

/// The legacy app's `AnnData.plist`: anniversaries keyed by "M. D.", each name mapping to
/// `{date, name, lunar: ON|OFF, holy: ON|OFF|1}`. Children's birthdays (`holy = 1`) and the public holidays the app
/// shipped pre-filled are left out: Saessak has both already.
enum AnnData {
    static func items(from url: URL, report: inout ImportReport) throws -> [ImportBatch.AnniversaryItem] {
        let file = url.lastPathComponent
        let root: [String: Any]
        do {
            let data = try Data(contentsOf: url)
            guard let dictionary = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
                throw ImportFailure("\(file): the root is not a dictionary of dates", korean: "\(file): 날짜별 기념일 목록이 아닙니다")
            }
            root = dictionary
        } catch let failure as ImportFailure {
            throw failure
        } catch {
            throw ImportFailure(
                "\(file): not a property list (\(error.localizedDescription))", korean: "\(file): 속성 목록(plist) 파일이 아닙니다 (\(error.localizedDescription))")
        }
        var items: [ImportBatch.AnniversaryItem] = []
        for dateKey in root.keys.sorted() where dateKey != "AnnData" {
            guard let names = root[dateKey] as? [String: Any] else {
                report.skip("\(file): '\(dateKey)' is not a dictionary of anniversaries", "\(file): '\(dateKey)'은(는) 기념일 목록이 아니어서 가져오지 않았습니다")
                continue
            }
            for nameKey in names.keys.sorted() {
                report.count("anniversaries")
                let place = "\(file): '\(dateKey)' → '\(nameKey)'"
                guard let fields = names[nameKey] as? [String: Any] else {
                    report.skip("\(place): not an anniversary", "\(place): 기념일이 아니어서 가져오지 않았습니다")
                    continue
                }
                let name = ((fields["name"] as? String) ?? nameKey).trimmingCharacters(in: .whitespacesAndNewlines)
                let holy = (fields["holy"] as? String)?.trimmingCharacters(in: .whitespaces)
                if holy == "1" {
                    report.skip(
                        "\(place): a child's birthday; Saessak shows birthdays from the profile",
                        "\(place): 아이 생일 — 새싹은 생일을 프로필에서 보여 줍니다")
                    continue
                }
                guard let (month, day) = monthDay((fields["date"] as? String) ?? dateKey) else {
                    throw ImportFailure(
                        "\(place), date: '\((fields["date"] as? String) ?? dateKey)' is not a \"M. D.\" date",
                        korean: "\(place), date: '\((fields["date"] as? String) ?? dateKey)'은(는) \"월. 일.\" 형식의 날짜가 아닙니다")
                }
                let calendar: CalendarKind = (fields["lunar"] as? String)?.uppercased() == "ON" ? .lunar : .solar
                if let holiday = publicHoliday(name: name, calendar: calendar, month: month, day: day) {
                    report.skip("\(place): already a public holiday in Saessak (\(holiday))", "\(place): 새싹에 이미 있는 공휴일입니다 (\(holiday))")
                    continue
                }
                let details: AnniversaryDetails
                do {
                    details = try AnniversaryDetails(name: name, calendar: calendar, month: month, day: day, isHoliday: holy == "ON")
                } catch {
                    throw ImportFailure("\(place): \(error.description)", korean: "\(place): 가져올 수 없는 기념일입니다 (\(error.description))")
                }
                let key = "AnnData/\(calendar.rawValue)/\(month)/\(day)/\(name)"
                items.append(.init(sourceKey: key, details: details))
            }
        }
        return items
    }

    /// "5. 5." → (5, 5)
    static func monthDay(_ text: String) -> (Int, Int)? {
        let numbers = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard numbers.count == 2 else { return nil }
        return (numbers[0], numbers[1])
    }

    /// Names the app used for days Saessak knows as public holidays, by Saessak's names for them.
    static let aliases: [String: String] = [
        "크리스마스": "기독탄신일", "성탄절": "기독탄신일", "석가탄신일": "부처님오신날", "초파일": "부처님오신날",
        "구정": "설날", "설": "설날", "한가위": "추석", "신정": "신정", "근로자의날": "노동절",
    ]

    /// The Saessak holiday this anniversary repeats: same name (or a known alias) on the same date, in the app's
    /// years or today's rules.
    static func publicHoliday(name: String, calendar: CalendarKind, month: Int, day: Int) -> String? {
        let compact = name.replacingOccurrences(of: " ", with: "")
        let wanted = aliases[compact] ?? compact
        for year in [2011, 2026] {
            let date: SolarDate?
            switch calendar {
            case .solar: date = try? SolarDate(year: year, month: month, day: day)
            case .lunar: date = (try? LunarDate(year: year, month: month, day: day)).flatMap { try? SolarDate.from($0) }
            }
            guard let date, let holidays = try? KoreanHolidays.holidays(in: year) else { continue }
            if let match = holidays.first(where: {
                $0.date == date && !$0.isSubstitute && $0.name.replacingOccurrences(of: " ", with: "") == wanted
            }) {
                return match.name
            }
        }
        return nil
    }
}
