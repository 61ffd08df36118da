import Diary
import Foundation
import Hummingbird
import KoreanCalendar
import Persistence
import Services

/// `GET /api/v1/today?date=YYYY-MM-DD&days=N`: what the family should hear about on a day (default today in Seoul)
/// and the N days after it (default 7): milestones (삼칠일, 백일, 200일, 첫돌, 1000일), birthdays (solar, or lunar for a
/// lunar-born child), anniversaries, vaccinations due or overdue, public holidays.
struct TodayAPI {
    let children: any ChildStore
    let anniversaries: any AnniversaryStore
    let vaccinations: any VaccinationStore
    let today: Today

    struct NoticeResource: Encodable {
        let kind: Notice.Kind
        let date: String
        let daysUntil: Int
        let title: String
        let childId: ChildID?
        let milestone: String?
        let vaccine: Vaccine?
        let number: Int?
        let age: Int?
    }

    struct Answer: Encodable {
        let date: String
        let days: Int
        let items: [NoticeResource]
    }

    static let lookahead = 0...60

    func register(on api: SecureRoutes) {
        api.get("today", .viewer, statements: 26) { [children, anniversaries, vaccinations, today] request, context in
            let family = try context.member().familyID
            let query = Query(request: request)
            let day = try query.date("date") ?? today.date()
            let days = try query.int("days") ?? 7
            guard Self.lookahead.contains(days) else {
                throw Problem(status: .badRequest, detail: "days: must be 0–60 (got \(days))", field: "days")
            }
            let notices = try await FamilyNotices.notices(
                family: family, on: day, days: days, children: try await children.all(family: family),
                anniversaries: try await anniversaries.all(family: family), vaccinations: vaccinations)
            return try JSONBody.response(Answer(
                date: day.iso, days: days,
                items: notices.map {
                    NoticeResource(
                        kind: $0.kind, date: $0.date.iso, daysUntil: $0.date.julianDayNumber - day.julianDayNumber, title: $0.title,
                        childId: $0.childID, milestone: $0.milestone?.rawValue, vaccine: $0.dose?.vaccine, number: $0.dose?.number,
                        age: $0.age)
                }))
        }
    }
}
