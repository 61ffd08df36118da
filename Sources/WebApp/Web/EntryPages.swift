import Diary
import Foundation
import Hummingbird
import KoreanCalendar
import Persistence
import Photos
import Services

/// The timeline (with filters and search), an entry with its photo viewer, the editor, and deletion.
struct EntryPages {
    let stores: WebStores
    /// Entries on one page of the timeline.
    static let pageSize = 30

    func register(on pages: SecureRoutes) {
        pages.get("timeline", .viewer, statements: 27) { request, context in try await timeline(request, context: context) }
        pages.get("entries/new", .editor, statements: 8) { request, context in
            let member = try context.member()
            var draft = EntryDraft(now: stores.today.now())
            if let child = request.uri.queryParameters["child"].flatMap({ ChildID(String($0)) }) { draft.childIDs = [child] }
            return try await editor(request, context: context, family: member.familyID, draft: draft, entry: nil, error: nil)
        }
        pages.post("entries/new", .editor) { request, context in try await save(request, context: context, id: nil) }
        pages.get("entries/:id", .viewer, statements: 51) { request, context in try await show(request, context: context) }
        pages.get("entries/:id/edit", .editor, statements: 19) { request, context in
            let member = try context.member()
            let entry = try await stores.entries.get(family: member.familyID, id: try context.id(of: "entry"))
            return try await editor(request, context: context, family: member.familyID, draft: EntryDraft(entry), entry: entry, error: nil)
        }
        pages.post("entries/:id/edit", .editor) { request, context in
            try await save(request, context: context, id: try context.id(of: "entry"))
        }
        // No confirmation: the entry goes to the trash, and the timeline offers 실행 취소.
        pages.post("entries/:id/delete", .editor) { request, context in
            let family = try context.member().familyID
            let item = try await stores.entries.delete(family: family, id: try context.id(of: "entry"), by: context.userID)
            return await TrashPages.deleted(item, then: "/timeline", request: request, context: context)
        }
    }

    // MARK: Timeline and search

    private func timeline(_ request: Request, context: AppRequestContext) async throws -> Response {
        let language = Language(request)
        let words = Words.table(language)
        let family = try context.member().familyID
        let query = Query(request: request)
        let filter = try query.timelineFilter()
        let children = try await stores.allChildren(family)
        let names = Dictionary(uniqueKeysWithValues: children.map { ($0.id, $0.profile.name) })
        let ages = ChildAges(children)
        var page = TimelinePage(
            childOptions: children.map { Option(value: $0.id.description, name: $0.profile.name, selected: $0.id == filter.childID) },
            year: query.string("year") ?? "", month: query.string("month") ?? "", filtered: filter != TimelineFilter(),
            canEdit: context.membership?.role.includes(.editor) == true)
        let paging = try query.paging()
        let searchText = query.string("q")
        if let text = searchText {
            let found: Page<SearchHit>
            do {
                found = try await stores.search.search(
                    family: family, try SearchQuery(text), filter: try SearchFilter(childID: filter.childID),
                    after: paging.cursor, limit: Self.pageSize)
            } catch let error as ValidationError {
                throw Problem(status: .badRequest, detail: error.text(Language(request)), field: "q")
            }
            let hits = found.items.map { hit in
                let shown = SearchHitResource(hit)
                return TimelinePage.Hit(
                    href: hit.kind == .entry ? "/entries/\(hit.id)" : "/memos/\(hit.id)", title: shown.title, snippet: shown.snippet,
                    isMemo: hit.kind == .memo)
            }
            page.shown = .hits(hits, for: text)
            page.next = found.next.map { Self.link(request, cursor: $0.description) }
        } else {
            let (sections, next) = try await stores.entries.timeline(family: family, filter: filter, after: paging.cursor, limit: Self.pageSize)
            let videos = try await EntryCard.videos(sections.flatMap(\.items), family: family, store: stores.photos.store)
            // What others wrote that this member has not opened yet carries a mark.
            let unread = try await stores.database.stores.news.unread(
                family: family, user: try context.user(), among: sections.flatMap(\.items))
            page.shown = .entries(
                sections.map { section in
                    var cards = HTMLWriter(capacity: section.items.count * 1_024)
                    for entry in section.items {
                        var card = EntryCard(entry, language: language, names: names, videos: videos, ages: ages)
                        card.isNew = unread.contains(entry.id)
                        card.writeTimeline(into: &cards, words)
                    }
                    return (month: language.monthTitle(year: section.month.year, month: section.month.month), cards: cards)
                })
            page.next = next.map { Self.link(request, cursor: $0.description) }
        }
        page.tagOptions = try await stores.entries.tags(family: family).map { Option(value: $0, name: $0, selected: $0 == filter.tag) }
        return WebPage(main: page.html(words), title: words[.timeline], tab: .timeline, searchText: searchText).response(request, context: context)
    }

    /// The same address with the next page's cursor.
    private static func link(_ request: Request, cursor: String) -> String {
        var parts = URLComponents()
        parts.path = request.uri.path
        var items = (URLComponents(string: request.uri.description)?.queryItems ?? []).filter { $0.name != "cursor" }
        items.append(URLQueryItem(name: "cursor", value: cursor))
        parts.queryItems = items
        return parts.string ?? request.uri.path
    }

    // MARK: An entry

    private func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let language = Language(request)
        let family = try context.member().familyID
        let entry = try await stores.entries.get(family: family, id: try context.id(of: "entry"))
        // Opened: no longer new to this member.
        try await stores.database.stores.news.markRead(family: family, user: try context.user(), entries: [entry.id])
        let children = try await stores.allChildren(family)
        let content = entry.content
        let count = entry.photoIDs.count
        let words = Words.table(language)
        let videos = try await stores.photos.store.videos(family: family, among: entry.photoIDs)
        let reactions = ReactionPages(stores: stores)
        // Each photo's age line, at its capture day (the entry's day when the photo carries none).
        let ages = ChildAges(children)
        let taken = Dictionary(
            try await stores.photos.store.photos(family: family, entry: entry.id).compactMap { photo in photo.takenDay.map { (photo.id, $0) } },
            uniquingKeysWith: { a, _ in a })
        let hearts = try await reactions.photoReactions(entry.photoIDs, context: context)
        let edits = try await stores.entries.versionCount(family: family, id: entry.id)
        let model = EntryModel(
            id: entry.id.description, date: "\(language.longDate(content.date.date)) \(language.time(content.date.time))",
            calendarLink: "/calendar/\(content.date.date.iso)", iso: content.date.iso, body: content.body, tags: content.tags,
            children: children.filter { content.childIDs.contains($0.id) }.map { child in
                TaggedChild(id: child.id.description, name: child.profile.name, age: ages.label(child.id, on: content.date.date, language: language))
            },
            hasPhotos: count > 0, manyPhotos: count > 1,
            photos: entry.photoIDs.enumerated().map { index, photo in
                ViewerPhoto(
                    large: PhotoLinks.thumbnail(photo, large: true), original: PhotoLinks.original(photo),
                    alt: "\(content.title) – \(words[videos[photo] == nil ? .photo : .video]) \(index + 1)/\(count)", number: index + 1,
                    video: videos[photo].map { Self.videoItem(photo, $0) }, photoId: photo.description,
                    ages: ages.line(content.childIDs, on: taken[photo] ?? content.date.date, language: language), id: entry.id.description,
                    csrf: context.session?.csrfToken ?? "", heartCount: hearts[photo]?.count ?? 0, hearted: hearts[photo]?.mine == true,
                    commentCount: hearts[photo]?.comments ?? 0)
            },
            reactions: try await reactions.section(.entry(entry.id), context: context, language: language),
            lunar: (try? LunarDate.from(content.date.date)).map { language.lunarDate($0) },
            place: content.place.map { place in
                place.name ?? place.foundText(english: language == .english)
                    ?? String(format: "%.4f, %.4f", place.latitude ?? 0, place.longitude ?? 0)
            },
            weather: content.weather,
            edited: edits > 0 ? TrashWord.editedTimes.text(language, "\(edits)") : nil)
        return WebPage("entry", title: content.title, tab: .timeline, model: model).response(request, context: context)
    }

    /// What the viewer shows of a clip: the player when browsers can play it, else how far its web version is.
    private static func videoItem(_ photo: PhotoID, _ video: VideoFacts) -> ViewerVideo {
        switch video.rendition {
        case .none, .ready: ViewerVideo(id: photo.description, src: PhotoLinks.video(photo))
        case .pending: ViewerVideo(id: photo.description, preparing: "\(video.renditionProgress ?? 0)%")
        case .failed: ViewerVideo(id: photo.description, failed: true)
        }
    }

    // MARK: Editor

    private func editor(
        _ request: Request, context: AppRequestContext, family: FamilyID, draft: EntryDraft, entry: Entry?, error: String?
    ) async throws -> Response {
        let language = Language(request)
        let words = Words.table(language)
        let children = try await stores.allChildren(family)
        let action = entry.map { "/entries/\($0.id)/edit" } ?? "/entries/new"
        let videos = try await stores.photos.store.videos(family: family, among: draft.photoIDs)
        // The place the coordinates lie in, shown until a name is typed (and the entry's place if none is).
        let found = Double(draft.latitude).flatMap { latitude in
            Double(draft.longitude).flatMap { longitude in
                (try? Place(name: nil, latitude: latitude, longitude: longitude))?.foundText(english: language == .english)
            }
        }
        let model = EditorModel(
            action: "\(action)?\(WebCredentials.csrfField)=\(context.session?.csrfToken ?? "")", entryTitle: draft.title, body: draft.body,
            date: draft.date, tags: draft.tags, place: draft.place, weather: draft.weather, latitude: draft.latitude,
            longitude: draft.longitude, version: draft.version,
            children: children.map {
                EditorChild(
                    id: $0.id.description, name: $0.profile.name, checked: draft.childIDs.contains($0.id), born: $0.profile.birthDate.solarDate?.iso ?? "")
            },
            noChildren: children.isEmpty,
            photos: draft.photoIDs.enumerated().map { index, photo in
                EditorPhoto(id: photo.description, thumbnail: PhotoLinks.thumbnail(photo), number: index + 1, videoBadge: videos[photo].map(PhotoLinks.badge))
            },
            cancel: entry.map { "/entries/\($0.id)" } ?? "/", maxFiles: PhotoService.maxFilesPerRequest, error: error,
            placeHint: found)
        return WebPage(
            "entry-editor", title: words[entry == nil ? .newEntry : .editEntry], tab: entry == nil ? .write : .timeline,
            model: model, status: error == nil ? .ok : .unprocessableContent
        ).response(request, context: context)
    }

    /// Saves the editor's form: its text fields, the photos already uploaded (by the page's script) in their order,
    /// and any files chosen without the script, all in one transaction with the entry.
    private func save(_ request: Request, context: AppRequestContext, id: EntryID?) async throws -> Response {
        let family = try context.member().familyID
        var entry: Entry?
        if let id { entry = try await stores.entries.get(family: family, id: id) }
        let form = try await MultipartForm.read(request, service: stores.photos)
        var draft = EntryDraft(form)
        var uploaded: [Photo] = []
        do {
            if !form.uploads.isEmpty {
                uploaded = try await stores.photos.ingest(form.uploads, family: family, entry: nil, now: stores.today.clock.now())
            }
        } catch let error as PhotoError {
            return try await editor(request, context: context, family: family, draft: draft, entry: entry, error: error.text(Language(request)))
        }
        draft.photoIDs += uploaded.map(\.id)
        do {
            let payload = try draft.payload()
            let first = try await payload.firstPhoto(family: family, photos: stores.photos.store)
            let content = try payload.content(first: first)
            let saved: Entry
            if let id {
                let (entry, released) = try await stores.entries.update(
                    family: family, id: id, content: content, photos: draft.photoIDs, expecting: Int64(draft.version), by: context.userID)
                await stores.photos.release(released)
                saved = entry
            } else {
                saved = try await stores.entries.create(family: family, content: content, photos: draft.photoIDs, author: context.userID)
            }
            await context.record(id == nil ? .created : .edited, saved)
            return AccountPages.redirect("/entries/\(saved.id)")
        } catch let error as ValidationError {
            return try await editor(request, context: context, family: family, draft: draft, entry: entry, error: error.text(Language(request)))
        } catch let error as StoreError {
            if case .changed = error, let id {
                // Changed elsewhere since the form was opened: the form comes back as typed, now against the stored
                // version, so that a second save replaces it knowingly.
                let stored = try await stores.entries.get(family: family, id: id)
                draft.version = String(stored.version)
                return try await editor(
                    request, context: context, family: family, draft: draft, entry: stored, error: Words.table(Language(request))[.entryChanged])
            }
            return try await editor(request, context: context, family: family, draft: draft, entry: entry, error: error.description)
        }
    }
}

/// What the editor shows and posts, as text: a new entry's defaults, a stored entry, or a form sent back with a
/// mistake (kept as typed).
struct EntryDraft {
    var title = ""
    var body = ""
    var date = ""
    var tags = ""
    var place = ""
    var weather = ""
    var latitude = ""
    var longitude = ""
    var childIDs: [ChildID] = []
    var photoIDs: [PhotoID] = []
    /// The stored entry's `Entry.version` the form was made from (empty for a new entry).
    var version = ""

    init(now: LocalDateTime) { date = now.iso }

    init(_ entry: Entry) {
        let content = entry.content
        title = content.title
        body = content.body
        date = content.date.iso
        tags = content.tags.joined(separator: ", ")
        place = content.place?.name ?? ""
        latitude = content.place?.latitude.map { String($0) } ?? ""
        longitude = content.place?.longitude.map { String($0) } ?? ""
        weather = content.weather ?? ""
        childIDs = content.childIDs
        photoIDs = entry.photoIDs
        version = String(entry.version)
    }

    init(_ form: MultipartForm) {
        title = form.field("title") ?? ""
        body = form.field("body") ?? ""
        date = form.field("date") ?? ""
        tags = form.field("tags") ?? ""
        place = form.field("place") ?? ""
        weather = form.field("weather") ?? ""
        latitude = form.field("latitude") ?? ""
        longitude = form.field("longitude") ?? ""
        childIDs = (form.fields["child"] ?? []).compactMap(ChildID.init)
        photoIDs = (form.fields["photo"] ?? []).compactMap(PhotoID.init)
        version = form.field("version") ?? ""
    }

    /// The API's payload for this draft: one validation for both.
    func payload() throws -> EntryPayload {
        func coordinate(_ text: String, field: String) throws -> Double? {
            guard let text = text.nonBlank else { return nil }
            guard let value = Double(text) else { throw ValidationError(field: field, .notANumber) }
            return value
        }
        let hasPlace = place.nonBlank != nil || latitude.nonBlank != nil
        return EntryPayload(
            title: title, body: body, date: date.nonBlank.map { String($0.prefix(16)) }, timeZone: nil, childIds: childIDs,
            tags: tags.split(separator: ",").compactMap { String($0).nonBlank },
            place: hasPlace
                ? PlaceBody(name: place.nonBlank, latitude: try coordinate(latitude, field: "latitude"),
                    longitude: try coordinate(longitude, field: "longitude"))
                : nil,
            weather: weather.nonBlank, photoIds: photoIDs)
    }
}
