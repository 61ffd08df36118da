import Diary
import KoreanCalendar

/// A notice on the home page, in the reader's language.
public struct NoticeLine {
    public let title: String
    public let when: String
    public let kind: String
    public let isToday: Bool

    public init(_ notice: Notice, today: SolarDate, language: Language, names: [ChildID: String]) {
        let who = notice.childID.flatMap { names[$0] }.map { "\($0) " } ?? ""
        let what: String
        switch (notice.kind, language) {
        case (.milestone, .english): what = notice.milestone?.englishName ?? notice.title
        case (.birthday, .korean): what = "\(notice.age.map { "\($0)번째 " } ?? "")생일"
        case (.birthday, .english): what = "birthday\(notice.age.map { " (\($0))" } ?? "")"
        case (.lunarBirthday, .korean): what = "음력 생일"
        case (.lunarBirthday, .english): what = "lunar birthday"
        case (.vaccination, .korean):
            what = "예방접종 \(notice.dose.map { "\($0.vaccine.koreanName) \($0.number)차" } ?? notice.title)"
        case (.vaccination, .english):
            what = "vaccination \(notice.dose.map { "\($0.vaccine.englishName) dose \($0.number)" } ?? notice.title)"
        default: what = notice.title
        }
        let days = notice.date.julianDayNumber - today.julianDayNumber
        title = who + what
        // Due and overdue doses are today's business (the health page says which are late).
        when = "\(language.daysAway(days)) · \(language.shortDate(notice.date))"
        kind = notice.kind.rawValue
        isToday = days == 0
    }
}
