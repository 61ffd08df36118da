/// Every store of one database, as the interfaces the rest of Saessak speaks. The composition roots (`saessak serve`,
/// the command line, tests) make one from a database engine — `DiaryDatabase.stores` for SQLite — and hand out its
/// parts; nothing past them names an engine.
public struct DiaryStores: Sendable {
    public let accounts: any AccountStore
    public let sessions: any SessionStore
    public let sharing: any SharingStore
    public let children: any ChildStore
    public let entries: any EntryStore
    public let memos: any MemoStore
    public let anniversaries: any AnniversaryStore
    public let events: any EventStore
    public let photos: any PhotoStore
    public let search: any SearchStore
    public let imports: any ImportStore
    public let growth: any GrowthStore
    public let vaccinations: any VaccinationStore
    public let loginFailures: any LoginFailureStore
    public let reactions: any ReactionStore
    public let news: any NewsStore
    public let mail: any MailStore
    public let weather: any WeatherStore
    public let trash: any TrashStore
    public let activity: any ActivityStore
    public let snapshots: any SnapshotStore
    public let books: any BookJobStore
    public let passkeys: any PasskeyStore
    public let secondSteps: any SecondStepStore

    public init(
        accounts: any AccountStore, sessions: any SessionStore, sharing: any SharingStore, children: any ChildStore,
        entries: any EntryStore, memos: any MemoStore, anniversaries: any AnniversaryStore, events: any EventStore,
        photos: any PhotoStore, search: any SearchStore, imports: any ImportStore, growth: any GrowthStore,
        vaccinations: any VaccinationStore, loginFailures: any LoginFailureStore, reactions: any ReactionStore,
        news: any NewsStore, mail: any MailStore, weather: any WeatherStore, trash: any TrashStore,
        activity: any ActivityStore, snapshots: any SnapshotStore, books: any BookJobStore,
        passkeys: any PasskeyStore, secondSteps: any SecondStepStore
    ) {
        self.accounts = accounts
        self.sessions = sessions
        self.sharing = sharing
        self.children = children
        self.entries = entries
        self.memos = memos
        self.anniversaries = anniversaries
        self.events = events
        self.photos = photos
        self.search = search
        self.imports = imports
        self.growth = growth
        self.vaccinations = vaccinations
        self.loginFailures = loginFailures
        self.reactions = reactions
        self.news = news
        self.mail = mail
        self.weather = weather
        self.trash = trash
        self.activity = activity
        self.snapshots = snapshots
        self.books = books
        self.passkeys = passkeys
        self.secondSteps = secondSteps
    }
}
