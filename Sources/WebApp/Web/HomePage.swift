import Diary
import Files
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
        /// For owners, when the server's disk is 90 % full or more.
        var diskWarning: String?
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
            let user = try context.user()
            guard let member = context.membership else {
                var model = Model(username: try await stores.signIn.accounts.account(user).username)
                model.noFamily = true
                return WebPage("home", title: words[.home], tab: .home, model: model, heading: .inMain).response(request, context: context)
            }
            let family = member.familyID
            let today = stores.today.date()
            // The page's reads need nothing of one another but the children, so they run at once: on PostgreSQL each
            // read is its own connection's round trips, and one after another they were most of the page's time.
            async let signedIn = stores.signIn.accounts.account(user)
            async let snapshot = member.role == .owner ? SnapshotLine.read(stores, language: language) : nil
            async let news = stores.database.stores.news.news(family: family, user: user)
            async let anniversaries = stores.anniversaries.all(family: family)
            async let earlier = stores.entries.onThisDay(family: family, OnThisDay(date: today, includeLunar: true), limit: 10)
            let children = try await stores.allChildren(family)
            let notices = try await FamilyNotices.notices(
                family: family, on: today, days: 7, children: children, anniversaries: try await anniversaries,
                vaccinations: stores.vaccinations)

            let account = try await signedIn
            var model = Model(username: account.username)
            model.familyName = account.families.first { $0.family.id == family }?.family.name ?? ""
            if let line = try await snapshot, line.troubled { model.snapshotWarning = line.text }
            // Owners hear of a disk nine tenths full before it refuses anything (issue 66).
            if member.role == .owner, let disk = DiskSpace.at(stores.dataFolder), disk.percentUsed >= DiskWatch.warnAt {
                model.diskWarning = ActivityWord.diskAlmostFull.text(language, "\(disk.percentUsed)")
            }
            let names = Dictionary(uniqueKeysWithValues: children.map { ($0.id, $0.profile.name) })
            let ages = ChildAges(children)
            let chosen = request.uri.queryParameters["child"].flatMap { ChildID(String($0)) }
            let current = children.first { $0.id == chosen } ?? children.first
            model.children = children.map { ChildChoice($0, selected: $0.id == current?.id) }
            model.manyChildren = children.count > 1
            model.child = current.map { ChildCard($0, today: today, language: language) }
            model.todayText = language.longDate(today)
            model.news = try await news.map { NewsText.line($0, language: language) }
            model.hasNews = !model.news.isEmpty
            model.todayLunar = (try? LunarDate.from(today)).map { language.lunarDate($0) }
            model.notices = notices.map { NoticeLine($0, today: today, language: language, names: names) }
            model.onThisDay = try await earlier.map {
                EarlierEntry(EntryCard($0, language: language, names: names, ages: ages), year: String($0.content.date.date.year))
            }
            return WebPage("home", title: words[.home], tab: .home, model: model, heading: .inMain).response(request, context: context)
        }
    }
}
