import Diary
import Foundation
import Hummingbird
import KoreanCalendar
import Persistence
import Services

/// `/calendar/YYYY-MM`: the month grid (Sunday first; Sundays, holidays and the family's own holidays red, Saturdays
/// blue; the lunar date or the solar term under every day; the family's entries, events and anniversaries), and
/// `/calendar/YYYY-MM-DD`: everything about one day.
struct CalendarPages {
    let stores: WebStores

    /// The month page (`MonthPage.html`): the grid's weeks of cells, and the months its arrows and form lead to.
    struct MonthPage {
        let title: String
        let weekdays: [String]
        /// Each week's cells' markup (`DayCell.write`).
        let weeks: [HTMLWriter]
        let previousMonth: String
        let nextMonth: String
        let previousYear: String
        let nextYear: String
        let monthValue: String
        let thisMonth: String
    }

    /// A day of the month grid.
    struct DayCell {
        let iso: String
        let day: Int
        let caption: String
        let isTerm: Bool
        let classes: String
        let holidays: [String]
        let label: String
        var entryCount: Int?
        var photo: String?
        var videoBadge: String?
        var marks: [String]?
    }

    /// What `calendar-day.mustache` shows.
    struct DayModel: PageModel {
        let iso: String
        let monthLink: String
        let previousDay: String
        let nextDay: String
        let entries: [EntryCard]
        let notices: [String]
        let events: [DayEvent]
        let holidays: [String]
        var lunar: String?
        var ganji: String?
        var term: String?
    }

    struct DayEvent {
        let title: String
        let kind: String
    }

    func register(on pages: SecureRoutes) {
        pages.get("calendar", .viewer) { request, _ in
            // The month-jump form, or this month.
            if let asked = request.uri.queryParameters["month"].map(String.init), let month = try? YearMonth(iso: asked) {
                return AccountPages.redirect("/calendar/\(month.iso)")
            }
            let today = stores.today.date()
            return AccountPages.redirect("/calendar/\(YearMonth(today).iso)")
        }
        pages.get("calendar/:date", .viewer, statements: 58) { request, context in
            let text = context.parameters.get("date") ?? ""
            if text.count == 7 {
                guard let month = try? YearMonth(iso: text), (1900...2100).contains(month.year) else {
                    throw Problem(status: .notFound, detail: "\(text) is not a month of 1900–2100 (YYYY-MM)")
                }
                return try await monthPage(request, context: context, month: month)
            }
            guard let date = try? SolarDate(iso: text), (1900...2100).contains(date.year) else {
                throw Problem(status: .notFound, detail: "\(text) is not a date of 1900–2100 (YYYY-MM-DD)")
            }
            return try await dayPage(request, context: context, date: date)
        }
    }

    /// What the family has on the days of a span: entries (count and first photo), and notices (milestones,
    /// birthdays, anniversaries) and events by day.
    private struct FamilyDays {
        var entries: [SolarDate: DaySummary] = [:]
        var notices: [SolarDate: [String]] = [:]
        var events: [SolarDate: [Event]] = [:]
        var familyHolidays: Set<SolarDate> = []
        var children: [Child] = []
    }

    private func familyDays(family: FamilyID, from first: SolarDate, through last: SolarDate, language: Language) async throws -> FamilyDays {
        // The reads need nothing of one another but the notices (the children and anniversaries), so they run at once:
        // on PostgreSQL each read is its own connection's round trips.
        let stores = stores
        async let entries = stores.entries.days(family: family, from: first, through: last)
        async let remembered = stores.anniversaries.all(family: family)
        async let listed = Page.all { try await stores.events.list(family: family, after: $0, limit: $1) }
        var days = FamilyDays()
        let children = try await stores.allChildren(family)
        days.children = children
        let names = Dictionary(uniqueKeysWithValues: children.map { ($0.id, $0.profile.name) })
        let anniversaries = try await remembered
        let notices = try await FamilyNotices.notices(
            family: family, on: first, days: first.days(until: last), children: children, anniversaries: anniversaries,
            vaccinations: stores.vaccinations)
        for notice in notices where notice.kind != .holiday && notice.kind != .vaccination {
            days.notices[notice.date, default: []].append(NoticeLine(notice, today: first, language: language, names: names).title)
        }
        for anniversary in anniversaries where anniversary.details.isHoliday {
            for date in Notices.occurrences(anniversary.details, around: first, last: last) where first <= date && date <= last {
                days.familyHolidays.insert(date)
            }
        }
        days.entries = try await entries
        for event in try await listed where first <= event.details.date && event.details.date <= last {
            days.events[event.details.date, default: []].append(event)
        }
        return days
    }

    private func monthPage(_ request: Request, context: AppRequestContext, month: YearMonth) async throws -> Response {
        let language = Language(request)
        let family = try context.member().familyID
        let view = try MonthView(year: month.year, month: month.month)
        let first = view.weeks.first!.first!.date
        let last = view.weeks.last!.last!.date
        let days = try await familyDays(family: family, from: first, through: last, language: language)
        let videos = try await stores.photos.store.videos(family: family, among: days.entries.values.compactMap(\.firstPhoto))
        let today = stores.today.date()
        let weekdayNames = language == .korean
            ? ["일", "월", "화", "수", "목", "금", "토"] : ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let words = Words.table(language)
        let weeks = view.weeks.map { week in
            var cells = HTMLWriter(capacity: week.count * 512)
            for day in week {
                var cell = DayCell(
                    iso: day.date.iso, day: day.date.day, caption: Self.caption(day, language: language), isTerm: day.term != nil,
                    classes: Self.classes(day, today: today, familyHoliday: days.familyHolidays.contains(day.date)),
                    holidays: day.holidays.map { language == .korean ? $0.name : $0.nameEn }, label: Self.accessibleLabel(day, language: language))
                if let summary = days.entries[day.date] {
                    cell.entryCount = summary.entries
                    cell.photo = summary.firstPhoto.map { PhotoLinks.thumbnail($0) }
                    cell.videoBadge = summary.firstPhoto.flatMap { videos[$0] }.map(PhotoLinks.badge)
                }
                let marks = (days.notices[day.date] ?? []) + (days.events[day.date] ?? []).map(\.details.title)
                cell.marks = marks.isEmpty ? nil : marks
                cell.write(into: &cells, words)
            }
            return cells
        }
        let title = language.monthTitle(year: month.year, month: month.month)
        let page = MonthPage(
            title: title, weekdays: weekdayNames, weeks: weeks, previousMonth: Self.shift(month, by: -1).iso,
            nextMonth: Self.shift(month, by: 1).iso, previousYear: Self.shift(month, by: -12).iso, nextYear: Self.shift(month, by: 12).iso,
            monthValue: month.iso, thisMonth: YearMonth(today).iso)
        return WebPage(main: page.html(words), title: title, tab: .calendar, heading: .inMain).response(request, context: context)
    }

    private func dayPage(_ request: Request, context: AppRequestContext, date: SolarDate) async throws -> Response {
        let language = Language(request)
        let words = Words.table(language)
        let family = try context.member().familyID
        let stores = stores
        async let listed = Page.all {
            try await stores.entries.list(family: family, filter: TimelineFilter(period: .day(date)), after: $0, limit: $1)
        }
        let days = try await familyDays(family: family, from: date, through: date, language: language)
        let children = days.children
        let names = Dictionary(uniqueKeysWithValues: children.map { ($0.id, $0.profile.name) })
        let ages = ChildAges(children)
        let entries = try await listed
        let videos = try await EntryCard.videos(entries, family: family, store: stores.photos.store)
        var model = DayModel(
            iso: date.iso, monthLink: "/calendar/\(YearMonth(date).iso)", previousDay: ((try? date.adding(days: -1)) ?? date).iso,
            nextDay: ((try? date.adding(days: 1)) ?? date).iso,
            entries: entries.reversed().map { EntryCard($0, language: language, names: names, videos: videos, ages: ages) },
            notices: days.notices[date] ?? [],
            events: (days.events[date] ?? []).map {
                DayEvent(title: $0.details.title, kind: words.named("event_\($0.details.kind.rawValue)") ?? $0.details.kind.rawValue)
            },
            holidays: ((try? KoreanHolidays.holidays(in: date.year)) ?? []).filter { $0.date == date }.map {
                language == .korean ? $0.name : $0.nameEn
            })
        if let lunar = try? LunarDate.from(date) {
            model.lunar = language.lunarDate(lunar, withYear: true)
            let ganji = Ganji.of(lunar, solar: date)
            model.ganji = language == .korean
                ? "\(ganji.year.korean)년 \(ganji.month.korean)월 \(ganji.day.korean)일 (\(ganji.year.hanja)年 \(ganji.month.hanja)月 \(ganji.day.hanja)日)"
                : "\(ganji.year.korean) year, \(ganji.month.korean) month, \(ganji.day.korean) day (\(ganji.year.hanja) \(ganji.month.hanja) \(ganji.day.hanja))"
        }
        if let moment = ((try? SolarTerms.moments(in: date.year)) ?? []).first(where: { $0.seoulDate == date }) {
            let time = try? ClockTime(iso: moment.seoulLocal.dropFirst(11).prefix(5))
            let name = language == .korean ? moment.term.koreanName : moment.term.englishName
            model.term = "\(name) (\(moment.term.hanja)) · \(time.map(language.time) ?? "")"
        }
        return WebPage("calendar-day", title: language.longDate(date), tab: .calendar, model: model).response(request, context: context)
    }

    static func shift(_ month: YearMonth, by months: Int) -> YearMonth {
        let index = month.year * 12 + (month.month - 1) + months
        return (try? YearMonth(year: index / 12, month: index % 12 + 1)) ?? month
    }

    /// The term's name on its day, otherwise the lunar date (`윤` before a leap month's day).
    static func caption(_ day: MonthView.Day, language: Language) -> String {
        if let term = day.term { return language == .korean ? term.term.koreanName : term.term.englishName }
        return day.caption
    }

    static func classes(_ day: MonthView.Day, today: SolarDate, familyHoliday: Bool) -> String {
        var classes: [String] = []
        if day.isRedDay || familyHoliday { classes.append("red") } else if day.isSaturday { classes.append("blue") }
        if !day.isInMonth { classes.append("out") }
        if day.date == today { classes.append("today") }
        return classes.joined(separator: " ")
    }

    /// What a screen reader says for a day cell: the full date, the lunar date and the holidays.
    static func accessibleLabel(_ day: MonthView.Day, language: Language) -> String {
        var parts = [language.longDate(day.date)]
        if let lunar = day.lunar { parts.append(language.lunarDate(lunar)) }
        if let term = day.term { parts.append(language == .korean ? term.term.koreanName : term.term.englishName) }
        parts += day.holidays.map { language == .korean ? $0.name : $0.nameEn }
        return parts.joined(separator: ", ")
    }
}
