import Foundation
import KoreanCalendar

// The diary's records: children, entries, memos, anniversaries, events, photos, search, imports. Each is implemented for SQLite by `SQLite…Store` (DiaryStore);
// everything else — routes, pages, services, backup, importers — speaks only these protocols and domain types.

/// Children of a family. Every call is scoped to one family: an ID from another family is simply not found.
public protocol ChildStore: Sendable {
    /// Children in the order they were added.
    func list(family: FamilyID, after cursor: PageCursor?, limit: Int) async throws -> Page<Child>

    func get(family: FamilyID, id: ChildID) async throws -> Child

    func create(family: FamilyID, profile: ChildProfile) async throws -> Child

    /// Replaces the whole profile.
    func update(family: FamilyID, id: ChildID, profile: ChildProfile) async throws -> Child

    /// Moves the child to the trash with everything that was only theirs (entries about no other child, events,
    /// anniversaries, measurements, vaccinations, the profile photo); entries shared with a sibling stay without them.
    func delete(family: FamilyID, id: ChildID, by user: UserID?) async throws -> TrashItem
}

extension ChildStore {
    /// Every child of the family by ID (a family has a handful), for their ages beside entries.
    public func byID(family: FamilyID) async throws -> [ChildID: Child] {
        let all = try await Page.all { try await list(family: family, after: $0, limit: $1) }
        return Dictionary(all.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// How long a client's idempotency key for a new entry is honoured (`EntryStore.create(…, idempotencyKey:)`).
public let idempotencyLifetime: TimeInterval = 24 * 3600

/// Diary entries of a family, with their children and tags, and the timeline over them.
public protocol EntryStore: Sendable {
    /// Entries newest first (by local date-time), narrowed by `filter`, one keyset page at a time.
    func list(family: FamilyID, filter: TimelineFilter, after cursor: PageCursor?, limit: Int) async throws -> Page<Entry>

    /// The same page as `list`, grouped into month sections ("2026년 11월") for the timeline.
    func timeline(family: FamilyID, filter: TimelineFilter, after cursor: PageCursor?, limit: Int) async throws -> (sections: [MonthSection<Entry>], next: PageCursor?)

    /// What a calendar shows of each day from `first` through `last`: how many entries, and the first photo of the
    /// day's earliest entry that has one. One grouped query, however many entries the days hold.
    func days(family: FamilyID, from first: SolarDate, through last: SolarDate) async throws -> [SolarDate: DaySummary]

    /// Entries of earlier years on the same day (solar, and lunar when asked), newest first.
    func onThisDay(family: FamilyID, _ day: OnThisDay, limit: Int) async throws -> [Entry]

    func get(family: FamilyID, id: EntryID) async throws -> Entry

    /// The family's entries among `ids`, in that order (others' and deleted ones left out): one read, however many.
    func entries(family: FamilyID, ids: [EntryID]) async throws -> [Entry]

    /// A new entry by `author`; `photos` (already uploaded by this family) become its photos in that order.
    func create(family: FamilyID, content: EntryContent, photos: [PhotoID], author: UserID?) async throws -> Entry

    /// `create`, at most once per `key` and family for a day (a draft sent again after its answer was lost): the key's
    /// entry comes back instead, `replayed`, whatever is sent with it. A key whose entry was deleted since is a
    /// conflict; keys older than `idempotencyLifetime` are forgotten.
    func create(family: FamilyID, content: EntryContent, photos: [PhotoID], author: UserID?, idempotencyKey key: String) async throws
        -> (entry: Entry, replayed: Bool)

    /// Replaces the whole content, children and tags included; `photos`, when given, replaces the photos too.
    /// With `expecting`, only while the stored entry is still that `Entry.version` (else `StoreError.changed`,
    /// nothing written); every update gives a new version, and keeps the one it replaced (`versions`) with its photos,
    /// by `user`. Returns the photo files whose last row went (versions past those kept).
    func update(family: FamilyID, id: EntryID, content: EntryContent, photos: [PhotoID]?, expecting version: Int64?, by user: UserID?)
        async throws -> (entry: Entry, released: [ReleasedPhotoFile])

    /// The versions edits replaced, newest first (docs/trash.md).
    func versions(family: FamilyID, id: EntryID) async throws -> [EntryVersion]

    /// How many versions edits replaced (the entry page's "수정됨 · 3번"), in one statement.
    func versionCount(family: FamilyID, id: EntryID) async throws -> Int

    /// Makes version `number` the entry's content and photos again, by `user`: itself an edit, which keeps the version
    /// it replaces. Children deleted since are left out (`StoreError.conflict` when none is left).
    func restoreVersion(family: FamilyID, id: EntryID, number: Int, by user: UserID?) async throws -> (entry: Entry, released: [ReleasedPhotoFile])

    /// Deletes version `number` of the entry for good (what an edit took out is then nowhere); returns the photo files
    /// no row uses any more.
    func purgeVersion(family: FamilyID, id: EntryID, number: Int) async throws -> [ReleasedPhotoFile]

    /// Moves the entry to the trash with everything that goes with it (`TrashStore`); tags left unused go.
    func delete(family: FamilyID, id: EntryID, by user: UserID?) async throws -> TrashItem

    /// The tags the family's entries use, by name.
    func tags(family: FamilyID) async throws -> [String]

    /// Entries, of every family, with coordinates and no place found for them — written before the bundled data could
    /// name a region (schema v16) or a country (outside Korea) — get what it names now, and their search documents
    /// with it; returns how many. Entries at sea stay without, and are looked at again the next time.
    func fillPlaceRegions() async throws -> Int
}

/// A family's memos, most recently changed first.
public protocol MemoStore: Sendable {
    func list(family: FamilyID, after cursor: PageCursor?, limit: Int) async throws -> Page<Memo>

    func get(family: FamilyID, id: MemoID) async throws -> Memo

    func create(family: FamilyID, content: MemoContent) async throws -> Memo

    func update(family: FamilyID, id: MemoID, content: MemoContent) async throws -> Memo

    /// Moves the memo to the trash.
    func delete(family: FamilyID, id: MemoID, by user: UserID?) async throws -> TrashItem
}

/// A family's yearly anniversaries, in month/day order.
public protocol AnniversaryStore: Sendable {
    func list(family: FamilyID, after cursor: PageCursor?, limit: Int) async throws -> Page<Anniversary>

    func get(family: FamilyID, id: AnniversaryID) async throws -> Anniversary

    func create(family: FamilyID, details: AnniversaryDetails) async throws -> Anniversary

    func update(family: FamilyID, id: AnniversaryID, details: AnniversaryDetails) async throws -> Anniversary

    /// Moves the anniversary to the trash.
    func delete(family: FamilyID, id: AnniversaryID, by user: UserID?) async throws -> TrashItem
}

/// One-off events of a family's children, newest first.
public protocol EventStore: Sendable {
    func list(family: FamilyID, child: ChildID?, after cursor: PageCursor?, limit: Int) async throws -> Page<Event>

    func get(family: FamilyID, id: EventID) async throws -> Event

    /// A new event; `photos` (already uploaded by this family) are kept with it in that order.
    func create(family: FamilyID, details: EventDetails, photos: [PhotoID]) async throws -> Event

    /// Replaces the details; `photos`, when given, replaces the photos too (and returns the files whose last row
    /// went with them).
    func update(family: FamilyID, id: EventID, details: EventDetails, photos: [PhotoID]?) async throws -> (event: Event, released: [ReleasedPhotoFile])

    /// Moves the event or visit to the trash with its photos.
    func delete(family: FamilyID, id: EventID, by user: UserID?) async throws -> TrashItem
}

/// Photo rows, their order in entries and events, and a child's profile photo. Files are the photo library's; when the last
/// row of a content hash goes, the store says so and the caller deletes the files (after the commit).
public protocol PhotoStore: Sendable {
    /// Adds uploaded photos in one transaction, appended to `entry` when given. The same content uploaded again by
    /// the same family is the same photo (and is not linked twice).
    func add(_ photos: [Photo], family: FamilyID, entry: EntryID?) async throws -> [Photo]

    func get(family: FamilyID, id: PhotoID) async throws -> Photo

    /// Whether an entry, an event or a child's profile of the family shows the photo: what a viewer may open by its id
    /// (one only an earlier version or the trash holds, or one uploaded and not yet placed, is the editors'; issue 66).
    func isInDiary(family: FamilyID, id: PhotoID) async throws -> Bool

    /// What the family's photos, clips and books take on disk, and how much was added in the last 30 days before
    /// `now` (for the owners' settings and `saessak doctor`).
    func storageUse(family: FamilyID?, now: Date) async throws -> StorageUse

    /// The photos of an entry in their order.
    func photos(family: FamilyID, entry: EntryID) async throws -> [Photo]

    /// The photos of each of `entries` (of this family) in their order: one read, however many entries.
    func photos(family: FamilyID, entries: [EntryID]) async throws -> [EntryID: [Photo]]

    /// Replaces an entry's photos with `ids` in that order (reorder, add already uploaded photos, drop others), by
    /// `user`: an edit of the entry, which keeps the version it replaces (and so the photos dropped).
    func setPhotos(_ ids: [PhotoID], family: FamilyID, entry: EntryID, by user: UserID?) async throws
        -> (photos: [Photo], released: [ReleasedPhotoFile])

    /// Takes a photo off an entry into the trash (its file stays until the trash lets it go).
    func remove(_ photo: PhotoID, family: FamilyID, entry: EntryID, by user: UserID?) async throws -> TrashItem

    /// Makes `photo` the child's profile photo (nil clears it).
    func setProfilePhoto(_ photo: PhotoID?, family: FamilyID, child: ChildID) async throws -> [ReleasedPhotoFile]

    /// The profile photo of a child, if set.
    func profilePhoto(family: FamilyID, child: ChildID) async throws -> Photo?

    /// Claims up to `limit` photos whose thumbnails are still to be made and that no worker holds, for `worker`,
    /// until `lease` has passed: on one database, two servers never make the same photo's thumbnails, and the jobs of
    /// a server that dies mid-job are claimed again once its lease runs out.
    func claimThumbnailJobs(worker: String, lease: TimeInterval, limit: Int) async throws -> [Photo]

    /// Records the thumbnails made (or failed for good), and lets go of the claim.
    func markThumbnails(_ id: PhotoID, ready: Bool) async throws

    /// The video clips among `ids` (this family's only), for the lists that mark them with their length.
    func videos(family: FamilyID, among ids: [PhotoID]) async throws -> [PhotoID: VideoFacts]

    /// Claims one clip whose web rendition is still to be made and that no worker holds, as thumbnails are claimed;
    /// a rendition takes minutes, so the worker renews its claim (`renewRendition`) while it works.
    func claimRenditionJob(worker: String, lease: TimeInterval) async throws -> Photo?

    /// Extends `worker`'s claim on a rendition by `lease` and records how far it is (0–100); false when the claim is
    /// no longer the worker's (it ran out and another took it) or the clip is gone.
    func renewRendition(_ id: PhotoID, worker: String, lease: TimeInterval, progress: Int) async throws -> Bool

    /// Records the rendition made (or failed for good), and lets go of the claim.
    func markRendition(_ id: PhotoID, ready: Bool) async throws

    /// Uploads never attached to an entry or a child within `age` are deleted (a parent who closed the editor).
    func deleteUnattached(olderThan age: TimeInterval) async throws -> [ReleasedPhotoFile]

    /// Every content hash some row still refers to (to find files a crash left without a row).
    func referencedHashes() async throws -> Set<String>

    /// The content hashes of this family's photos and clips, those in the trash too: what an import of photos
    /// leaves out as already in the diary.
    func hashes(family: FamilyID) async throws -> Set<String>
}

/// Korean full-text search over a family's entries (title, body, tags, place) and memos, best match first.
public protocol SearchStore: Sendable {
    /// One page of hits, best first. The cursor carries the window and the position in it.
    func search(family: FamilyID, _ query: SearchQuery, filter: SearchFilter, after cursor: PageCursor?, limit: Int) async throws -> Page<SearchHit>

    /// Rebuilds every document and the index (`saessak admin reindex`); returns how many entries and memos it holds.
    func reindex() async throws -> (entries: Int, memos: Int)
}

/// Writes what an importer read, all or nothing, remembering each record by its source so that importing the same
/// source again adds nothing twice. A dry run does the very same writes and rolls them back.
///
/// An importer proposes IDs for the children and photos it read; records refer to them by those IDs. When a child
/// was already imported from the same source, its records go to that child instead; a photo whose content the
/// family already has is that photo.
public protocol ImportStore: Sendable {
    func importBatch(_ batch: ImportBatch, family: FamilyID, source: String, dryRun: Bool) async throws -> ImportOutcome
}

// The arguments most callers leave out.

extension EntryStore {
    public func list(family: FamilyID, after cursor: PageCursor?, limit: Int) async throws -> Page<Entry> {
        try await list(family: family, filter: TimelineFilter(), after: cursor, limit: limit)
    }

    public func onThisDay(family: FamilyID, _ day: OnThisDay) async throws -> [Entry] {
        try await onThisDay(family: family, day, limit: 100)
    }

    public func create(family: FamilyID, content: EntryContent) async throws -> Entry {
        try await create(family: family, content: content, photos: [], author: nil)
    }

    public func create(family: FamilyID, content: EntryContent, photos: [PhotoID]) async throws -> Entry {
        try await create(family: family, content: content, photos: photos, author: nil)
    }

    public func create(family: FamilyID, content: EntryContent, photos: [PhotoID], idempotencyKey key: String) async throws
        -> (entry: Entry, replayed: Bool)
    {
        try await create(family: family, content: content, photos: photos, author: nil, idempotencyKey: key)
    }

    public func update(family: FamilyID, id: EntryID, content: EntryContent) async throws -> (entry: Entry, released: [ReleasedPhotoFile]) {
        try await update(family: family, id: id, content: content, photos: nil, expecting: nil, by: nil)
    }

    public func update(family: FamilyID, id: EntryID, content: EntryContent, photos: [PhotoID]?) async throws
        -> (entry: Entry, released: [ReleasedPhotoFile])
    {
        try await update(family: family, id: id, content: content, photos: photos, expecting: nil, by: nil)
    }

    public func update(family: FamilyID, id: EntryID, content: EntryContent, photos: [PhotoID]?, expecting version: Int64?) async throws
        -> (entry: Entry, released: [ReleasedPhotoFile])
    {
        try await update(family: family, id: id, content: content, photos: photos, expecting: version, by: nil)
    }
}

extension PhotoStore {
    public func setPhotos(_ ids: [PhotoID], family: FamilyID, entry: EntryID) async throws -> (photos: [Photo], released: [ReleasedPhotoFile]) {
        try await setPhotos(ids, family: family, entry: entry, by: nil)
    }
}

extension EventStore {
    public func list(family: FamilyID, after cursor: PageCursor?, limit: Int) async throws -> Page<Event> {
        try await list(family: family, child: nil, after: cursor, limit: limit)
    }

    public func create(family: FamilyID, details: EventDetails) async throws -> Event {
        try await create(family: family, details: details, photos: [])
    }

    public func update(family: FamilyID, id: EventID, details: EventDetails) async throws -> (event: Event, released: [ReleasedPhotoFile]) {
        try await update(family: family, id: id, details: details, photos: nil)
    }
}

extension SearchStore {
    public func search(family: FamilyID, _ query: SearchQuery, after cursor: PageCursor?, limit: Int) async throws -> Page<SearchHit> {
        try await search(family: family, query, filter: SearchFilter(), after: cursor, limit: limit)
    }
}

extension ChildStore {
    /// Every child of the family, in the order they were added (a family has a few; `Page.all` over `list`).
    public func all(family: FamilyID) async throws -> [Child] {
        try await Page.all { try await list(family: family, after: $0, limit: $1) }
    }
}

extension AnniversaryStore {
    /// Every anniversary of the family (`Page.all` over `list`).
    public func all(family: FamilyID) async throws -> [Anniversary] {
        try await Page.all { try await list(family: family, after: $0, limit: $1) }
    }
}

/// A family's trash: what members deleted, kept until restored, purged by an owner, or swept after the family's
/// days of grace (docs/trash.md). Deleting goes through each item's own store (`EntryStore.delete` and the rest).
public protocol TrashStore: Sendable {
    /// Everything in the family's trash, most recently deleted first, and how many days the family keeps it.
    func list(family: FamilyID) async throws -> (items: [TrashItem], days: Int)

    func get(family: FamilyID, id: TrashID) async throws -> TrashItem

    /// Puts the item back as it was, with its IDs, order, links and search hits. When what it belonged to is in the
    /// trash too, `withParent` restores that first; without it, `StoreError.conflict(field: "parent")`. Every item it
    /// would bring back must be one `restorer` may restore (`TrashRestorer.may`): the one named (else not found) and
    /// what it belonged to (else `StoreError.conflict(field: "parent")`, nothing restored).
    func restore(family: FamilyID, id: TrashID, withParent: Bool, as restorer: TrashRestorer) async throws -> [TrashRestore]

    /// Deletes one item for good; returns the photo files no row uses any more.
    func purge(family: FamilyID, id: TrashID) async throws -> [ReleasedPhotoFile]

    /// Deletes everything in the family's trash for good.
    func empty(family: FamilyID) async throws -> [ReleasedPhotoFile]

    /// Deletes for good every family's items older than that family's days of grace.
    func sweep() async throws -> [ReleasedPhotoFile]

    /// How many days the family's trash keeps things.
    func retention(family: FamilyID) async throws -> Int

    func setRetention(family: FamilyID, days: Int) async throws
}
