import Diary
import Persistence

extension PostgresDatabase {
    /// Every store, over this database.
    public var stores: DiaryStores {
        DiaryStores(
            accounts: PostgresAccountStore(self), sessions: PostgresSessionStore(self), sharing: PostgresSharingStore(self),
            children: PostgresChildStore(self), entries: PostgresEntryStore(self), memos: PostgresMemoStore(self),
            anniversaries: PostgresAnniversaryStore(self), events: PostgresEventStore(self), photos: PostgresPhotoStore(self),
            search: PostgresSearchStore(self), imports: PostgresImportStore(self), growth: PostgresGrowthStore(self),
            vaccinations: PostgresVaccinationStore(self), loginFailures: PostgresLoginFailureStore(self), reactions: PostgresReactionStore(self), news: PostgresNewsStore(self), mail: PostgresMailStore(self), weather: PostgresWeatherStore(self))
    }
}
