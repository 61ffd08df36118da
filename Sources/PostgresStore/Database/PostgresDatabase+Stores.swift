import Diary
import Persistence

extension PostgresDatabase {
    /// Every store, over this database.
    public var stores: DiaryStores {
        DiaryStores(
            accounts: SQLAccountStore(self), sessions: SQLSessionStore(self), sharing: SQLSharingStore(self),
            children: SQLChildStore(self), entries: SQLEntryStore(self), memos: SQLMemoStore(self),
            anniversaries: SQLAnniversaryStore(self), events: SQLEventStore(self), photos: SQLPhotoStore(self),
            search: PostgresSearchStore(self), imports: SQLImportStore(self), growth: SQLGrowthStore(self),
            vaccinations: SQLVaccinationStore(self), loginFailures: SQLLoginFailureStore(self), reactions: SQLReactionStore(self),
            news: SQLNewsStore(self), mail: SQLMailStore(self), weather: SQLWeatherStore(self), trash: SQLTrashStore(self),
            activity: SQLActivityStore(self), snapshots: SQLSnapshotStore(self), books: SQLBookJobStore(self),
            passkeys: SQLPasskeyStore(self), secondSteps: SQLSecondStepStore(self))
    }
}
