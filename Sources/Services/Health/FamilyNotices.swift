import Diary
import Foundation
import KoreanCalendar
import Persistence

/// What a family should hear about on a day and the days after it: milestones, birthdays, anniversaries,
/// vaccinations due or overdue, public holidays.
public enum FamilyNotices {
    /// The notices of a family on a day and the `days` after it (the API's answer, the home page's and the calendar's),
    /// from its children and anniversaries as the caller has them (a page that shows them too reads them once).
    public static func notices(
        family: FamilyID, on day: SolarDate, days: Int, children: [Child], anniversaries remembered: [Anniversary],
        vaccinations: any VaccinationStore
    ) async throws -> [Notice] {
        let inputs = try await VaccinationPlans.children(family: family, on: day, children: children, vaccinations: vaccinations)
        let last = (try? day.adding(days: days)) ?? day
        let holidays = Set([day.year, last.year]).flatMap { (try? KoreanHolidays.holidays(in: $0)) ?? [] }
        return Notices.on(day, lookahead: days, children: inputs, anniversaries: remembered, holidays: holidays)
    }
}
