import Diary
import Foundation
import Persistence
import Services
import Snapshots
import WeatherAnswers
import KoreanCalendar

/// The stores the pages read and write, made once for the whole web app.
struct WebStores: Sendable {
    let entries: any EntryStore
    let children: any ChildStore
    let memos: any MemoStore
    let anniversaries: any AnniversaryStore
    let events: any EventStore
    let vaccinations: any VaccinationStore
    let growth: any GrowthStore
    let search: any SearchStore
    let sharing: any SharingStore
    let photos: PhotoService
    let signIn: SignIn
    let today: Today
    let database: any DiaryEngine
    /// The data folder, for what stays local whatever the storage: staged imports and made backups.
    let dataFolder: URL
    /// Whether this server sends mail (`saessak serve` was given SMTP settings).
    let sendsMail: Bool
    /// Where the day's weather is asked (the settings page names it).
    let weatherURL: String
    /// Where the scheduled snapshots go, when `saessak serve` was given a target (the owners' pages say how they do).
    let snapshots: SnapshotSettings?

    /// `entries`: the store pages write entries through (the weather-filling one), or the database's.
    init(
        database: any DiaryEngine, dataFolder: URL, photos: PhotoService, signIn: SignIn, sendsMail: Bool = false,
        entries: (any EntryStore)? = nil, weatherURL: String = OpenMeteoArchive.defaultURL, snapshots: SnapshotSettings? = nil
    ) {
        self.snapshots = snapshots
        self.database = database
        self.sendsMail = sendsMail
        self.weatherURL = weatherURL
        self.dataFolder = dataFolder
        let stores = database.stores
        self.entries = entries ?? stores.entries
        children = stores.children
        memos = stores.memos
        anniversaries = stores.anniversaries
        events = stores.events
        vaccinations = stores.vaccinations
        growth = stores.growth
        search = stores.search
        sharing = stores.sharing
        self.photos = photos
        self.signIn = signIn
        today = Today(clock: database.clock)
    }

    /// Every child of the family, oldest first as the store lists them.
    func allChildren(_ family: FamilyID) async throws -> [Child] {
        try await children.all(family: family)
    }
}
