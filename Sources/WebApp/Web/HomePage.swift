import Diary
import Hummingbird
import KoreanCalendar
import Persistence
import Services

/// `/`: the child switcher and profile card, today's notices, "on this day" of earlier years, and the big write
/// button. A signed-in user with no family yet sees how to get one.
struct HomePage {
    let stores: WebStores

    /// What `home.mustache` shows.
    struct Model: PageModel {
        let username: String
        var noFamily = false
        var familyName: String?
        var children: [ChildChoice] = []
        var manyChildren = false
        var child: ChildCard?
        var todayText = ""
        var todayLunar: String?
        var hasNews = false
        var news: [String] = []
        var notices: [NoticeLine] = []
        var onThisDay: [EarlierEntry] = []
        /// For owners, when the snapshots failed or are late (docs/backup.md).
        var snapshotWarning: String?
    }

    /// An entry of an earlier year on this day, with its year: the few fields of its card the list shows (the
    /// template reads a model by reflection, every field of it, and a whole card has dozens).
    struct EarlierEntry {
        let id: String
        let title: String
        let date: String
        let year: String

        init(_ card: EntryCard, year: String) {
            id = card.id
            title = card.title
            date = card.date
            self.year = year
        }
    }

    func register(on pages: SecureRoutes) {
        pages.get("", .signedIn, statements: 46) { [stores] request, context in
            let language = Language(request)
            let words = Words.table(language)
            let account = try await stores.signIn.accounts.account(try context.user())
            var model = Model(username: account.username)
            guard let member = context.membership else {
                model.noFamily = true
                return WebPage("home", title: words[.home], tab: .home, model: model, heading: .inMain).response(request, context: context)
            }
            model.familyName = account.families.first { $0.family.id == member.familyID }?.family.name ?? ""
            if member.role == .owner, let line = try await SnapshotLine.read(stores, language: language), line.troubled {
                model.snapshotWarning = line.text
            }
            let today = stores.today.date()
            let children = try await stores.allChildren(member.familyID)
            let names = Dictionary(uniqueKeysWithValues: children.map { ($0.id, $0.profile.name) })
            let ages = ChildAges(children)
            let chosen = request.uri.queryParameters["child"].flatMap { ChildID(String($0)) }
            let current = children.first { $0.id == chosen } ?? children.first
            model.children = children.map { ChildChoice($0, selected: $0.id == current?.id) }
            model.manyChildren = children.count > 1
            model.child = current.map { ChildCard($0, today: today, language: language) }
            model.todayText = language.longDate(today)
            model.news = try await stores.database.stores.news.news(family: member.familyID, user: try context.user()).map {
                NewsText.line($0, language: language)
            }
            model.hasNews = !model.news.isEmpty
            model.todayLunar = (try? LunarDate.from(today)).map { language.lunarDate($0) }
            let notices = try await FamilyNotices.notices(
                family: member.familyID, on: today, days: 7, children: children,
                anniversaries: try await stores.anniversaries.all(family: member.familyID),
                vaccinations: stores.vaccinations)
            model.notices = notices.map { NoticeLine($0, today: today, language: language, names: names) }
            let earlier = try await stores.entries.onThisDay(family: member.familyID, OnThisDay(date: today, includeLunar: true), limit: 10)
            model.onThisDay = earlier.map { EarlierEntry(EntryCard($0, language: language, names: names, ages: ages), year: String($0.content.date.date.year)) }
            return WebPage("home", title: words[.home], tab: .home, model: model, heading: .inMain).response(request, context: context)
        }
    }
}
