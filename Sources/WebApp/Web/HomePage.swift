import Diary
import Hummingbird
import KoreanCalendar
import Persistence
import Services

/// `/`: the child switcher and profile card, today's notices, "on this day" of earlier years, and the big write
/// button. A signed-in user with no family yet sees how to get one.
struct HomePage {
    let stores: WebStores

    func register(on pages: SecureRoutes) {
        pages.get("", .signedIn) { [stores] request, context in
            let language = Language(request)
            let words = Words.table(language)
            let account = try await stores.signIn.accounts.account(try context.user())
            var data: [String: Any] = ["username": account.username]
            guard let member = context.membership else {
                data["noFamily"] = true
                return WebPage("home", title: words[.home], tab: .home, data: data).response(request, context: context)
            }
            data["familyName"] = account.families.first { $0.family.id == member.familyID }?.family.name ?? ""
            let today = stores.today.date()
            let children = try await stores.allChildren(member.familyID)
            let names = Dictionary(uniqueKeysWithValues: children.map { ($0.id, $0.profile.name) })
            let ages = ChildAges(children)
            let chosen = request.uri.queryParameters["child"].flatMap { ChildID(String($0)) }
            let current = children.first { $0.id == chosen } ?? children.first
            data["children"] = children.map {
                ["id": $0.id.description, "name": $0.profile.name, "current": $0.id == current?.id]
            }
            data["manyChildren"] = children.count > 1
            data["child"] = current.map { ChildCard($0, today: today, language: language) }
            data["todayText"] = language.longDate(today)
            let news = try await stores.database.stores.news.news(family: member.familyID, user: try context.user())
            if !news.isEmpty {
                data["hasNews"] = true
                data["news"] = news.map { NewsText.line($0, language: language) }
            }
            if let lunar = try? LunarDate.from(today) { data["todayLunar"] = language.lunarDate(lunar) }
            let notices = try await FamilyNotices.notices(
                family: member.familyID, on: today, days: 7, children: stores.children, anniversaries: stores.anniversaries,
                vaccinations: stores.vaccinations)
            data["notices"] = notices.map { NoticeLine($0, today: today, language: language, names: names) }
            let earlier = try await stores.entries.onThisDay(family: member.familyID, OnThisDay(date: today, includeLunar: true), limit: 10)
            data["onThisDay"] = earlier.map { entry in
                ["card": EntryCard(entry, language: language, names: names, ages: ages), "year": String(entry.content.date.date.year)]
            }
            return WebPage("home", title: words[.home], tab: .home, data: data).response(request, context: context)
        }
    }
}
