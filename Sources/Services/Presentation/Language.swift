import Diary
import KoreanCalendar

/// The language of a page or a mail: Korean first, complete in English.
public enum Language: String, Sendable {
    case korean = "ko"
    case english = "en"
}

extension Language {
    /// `text` with each `%@` replaced by the next of `arguments` (the words' placeholders, in mail and on pages).
    public static func filling(_ text: String, _ arguments: [String]) -> String {
        var result = text
        for argument in arguments {
            guard let range = result.range(of: "%@") else { break }
            result.replaceSubrange(range, with: argument)
        }
        return result
    }

    /// A date as people write it: 2026년 11월 22일 일요일, or Sunday, 22 November 2026.
    public func longDate(_ date: SolarDate) -> String {
        switch self {
        case .korean: "\(date.year)년 \(date.month)월 \(date.day)일 \(Self.koreanWeekdays[date.weekday])요일"
        case .english: "\(Self.englishWeekdays[date.weekday]), \(date.day) \(Self.englishMonths[date.month - 1]) \(date.year)"
        }
    }
}

extension Language {
    // Made once: an array literal in a date's words was made again at every call (a month page writes 42 dates).
    private static let englishMonths = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]
    private static let englishWeekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let koreanWeekdays = ["일", "월", "화", "수", "목", "금", "토"]

    /// A month's heading: 2026년 11월, or November 2026.
    public func monthTitle(year: Int, month: Int) -> String {
        self == .korean ? "\(year)년 \(month)월" : "\(Self.englishMonths[month - 1]) \(year)"
    }

    /// A short date: 11월 22일 (일), or Sun 22 Nov.
    public func shortDate(_ date: SolarDate) -> String {
        switch self {
        case .korean: "\(date.month)월 \(date.day)일 (\(Self.koreanWeekdays[date.weekday]))"
        case .english: "\(Self.englishWeekdays[date.weekday].prefix(3)) \(date.day) \(Self.englishMonths[date.month - 1].prefix(3))"
        }
    }

    /// A lunar date: 음력 10월 4일 (윤달: 음력 윤6월 4일), or lunar 10/4 (leap 6/4).
    public func lunarDate(_ date: LunarDate, withYear: Bool = false) -> String {
        switch self {
        case .korean: "음력 \(withYear ? "\(date.year)년 " : "")\(date.isLeapMonth ? "윤" : "")\(date.month)월 \(date.day)일"
        case .english: "lunar \(withYear ? "\(date.year)/" : "")\(date.isLeapMonth ? "leap " : "")\(date.month)/\(date.day)"
        }
    }

    /// A time of day: 오후 3:05, or 3:05 pm.
    public func time(_ time: ClockTime) -> String {
        let hour12 = time.hour % 12 == 0 ? 12 : time.hour % 12
        let minute = time.minute < 10 ? "0\(time.minute)" : "\(time.minute)"
        return self == .korean ? "\(time.hour < 12 ? "오전" : "오후") \(hour12):\(minute)" : "\(hour12):\(minute) \(time.hour < 12 ? "am" : "pm")"
    }

    /// How far a day is: 오늘, 내일, D-3; or today, tomorrow, in 3 days.
    public func daysAway(_ days: Int) -> String {
        switch (self, days) {
        case (.korean, 0): "오늘"
        case (.korean, 1): "내일"
        case (.korean, _): "D-\(days)"
        case (.english, 0): "today"
        case (.english, 1): "tomorrow"
        case (.english, _): "in \(days) days"
        }
    }
}

extension Language {
    /// 하늘 · 몸무게 (kg) · WHO 성장기준 백분위수: a growth chart's title, on the page and in the book.
    public func growthChartTitle(child name: String, chart: GrowthChartModel) -> String {
        let what = switch (chart.kind, self) {
        case (.weight, .korean): "몸무게"
        case (.height, .korean): "키"
        case (.head, .korean): "머리둘레"
        case (.weight, .english): "Weight"
        case (.height, .english): "Length/height"
        case (.head, .english): "Head circumference"
        }
        let standard = self == .korean ? "WHO 성장기준 백분위수" : "WHO growth standard percentiles"
        return "\(name) · \(what) (\(chart.unit)) · \(standard)"
    }
}
