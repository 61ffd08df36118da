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
        pages.get("timeline", .viewer) { request, context in try await timeline(request, context: context) }
        pages.get("entries/new", .editor) { request, context in
            let member = try context.member()
            var draft = EntryDraft(now: stores.today.now())
            if let child = request.uri.queryParameters["child"].flatMap({ ChildID(String($0)) }) { draft.childIDs = [child] }
            return try await editor(request, context: context, family: member.familyID, draft: draft, entry: nil, error: nil)
        }
        pages.post("entries/new", .editor) { request, context in try await save(request, context: context, id: nil) }
        pages.get("entries/:id", .viewer) { request, context in try await show(request, context: context) }
        pages.get("entries/:id/edit", .editor) { request, context in
            let member = try context.member()
            let entry = try await stores.entries.get(family: member.familyID, id: try context.id(of: "entry"))
            return try await editor(request, context: context, family: member.familyID, draft: EntryDraft(entry), entry: entry, error: nil)
        }
        pages.post("entries/:id/edit", .editor) { request, context in
            try await save(request, context: context, id: try context.id(of: "entry"))
        }
        pages.get("entries/:id/delete", .editor) { request, context in
            let entry = try await stores.entries.get(family: try context.member().familyID, id: try context.id(of: "entry"))
            let language = Language(request)
            return WebPage(
                "confirm-delete", title: Words.table(language)[.deleteEntry], tab: .timeline,
                data: [
                    "name": entry.content.title, "action": "/entries/\(entry.id)/delete", "back": "/entries/\(entry.id)",
                    "consequences": [Words.table(language)[.deleteEntryWarning]],
                ]
            ).response(request, context: context)
        }
        pages.post("entries/:id/delete", .editor) { _, context in
            let family = try context.member().familyID
            await stores.photos.release(try await stores.entries.delete(family: family, id: try context.id(of: "entry")))
            return AccountPages.redirect("/timeline")
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
        var data: [String: Any] = [:]
        let paging = try query.paging()
        if let text = query.string("q") {
            data["searchText"] = text
            let page: Page<SearchHit>
            do {
                page = try await stores.search.search(
                    family: family, try SearchQuery(text), filter: try SearchFilter(childID: filter.childID),
                    after: paging.cursor, limit: Self.pageSize)
            } catch let error as ValidationError {
                throw Problem(status: .badRequest, detail: error.text(Language(request)), field: "q")
            }
            data["searching"] = true
            data["hits"] = page.items.map { hit in
                let shown = SearchHitResource(hit)
                return [
                    "href": hit.kind == .entry ? "/entries/\(hit.id)" : "/memos/\(hit.id)", "title": shown.title,
                    "snippet": shown.snippet, "isMemo": hit.kind == .memo,
                ] as [String: Any]
            }
            data["next"] = page.next.map { Self.link(request, cursor: $0.description) }
        } else {
            let (sections, next) = try await stores.entries.timeline(family: family, filter: filter, after: paging.cursor, limit: Self.pageSize)
            let videos = try await EntryCard.videos(sections.flatMap(\.items), family: family, store: stores.photos.store)
            // What others wrote that this member has not opened yet carries a mark.
            let unread = try await stores.database.stores.news.unread(
                family: family, user: try context.user(), among: sections.flatMap(\.items).map(\.id))
            data["sections"] = sections.map { section in
                [
                    "month": language.monthTitle(year: section.month.year, month: section.month.month),
                    "entries": section.items.map { entry in
                        var card = EntryCard(entry, language: language, names: names, videos: videos, ages: ages)
                        card.isNew = unread.contains(entry.id)
                        return card
                    },
                ] as [String: Any]
            }
            data["next"] = next.map { Self.link(request, cursor: $0.description) }
            data["empty"] = sections.isEmpty
        }
        let tags = try await stores.entries.tags(family: family)
        data["childOptions"] = children.map {
            ["value": $0.id.description, "label": $0.profile.name, "selected": $0.id == filter.childID] as [String: Any]
        }
        data["tagOptions"] = tags.map { ["value": $0, "label": $0, "selected": $0 == filter.tag] as [String: Any] }
        data["year"] = query.string("year") ?? ""
        data["month"] = query.string("month") ?? ""
        data["filtered"] = filter != TimelineFilter()
        return WebPage("timeline", title: words[.timeline], tab: .timeline, data: data).response(request, context: context)
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
        var data: [String: Any] = [
            "id": entry.id.description,
            "date": "\(language.longDate(content.date.date)) \(language.time(content.date.time))",
            "calendarLink": "/calendar/\(content.date.date.iso)",
            "iso": content.date.iso,
            "body": content.body,
            "tags": content.tags,
            "children": children.filter { content.childIDs.contains($0.id) }.map { child -> [String: Any] in
                var item: [String: Any] = ["id": child.id.description, "name": child.profile.name]
                if let age = ages.label(child.id, on: content.date.date, language: language) { item["age"] = age }
                return item
            },
            "hasPhotos": count > 0,
            "manyPhotos": count > 1,
            "photos": entry.photoIDs.enumerated().map { index, photo in
                var item: [String: Any] = [
                    "large": PhotoLinks.thumbnail(photo, large: true), "original": PhotoLinks.original(photo),
                    "alt": "\(content.title) – \(words[videos[photo] == nil ? .photo : .video]) \(index + 1)/\(count)", "number": index + 1,
                ]
                if let video = videos[photo] { item["video"] = Self.videoItem(photo, video) }
                item["photoId"] = photo.description
                let day = taken[photo] ?? content.date.date
                if let line = ages.line(content.childIDs, on: day, language: language) { item["ages"] = line }
                item["id"] = entry.id.description
                item["csrf"] = context.session?.csrfToken ?? ""
                item["heartCount"] = hearts[photo]?.count ?? 0
                if hearts[photo]?.mine == true { item["hearted"] = true }
                item["commentCount"] = hearts[photo]?.comments ?? 0
                return item
            },
            "reactions": try await reactions.section(.entry(entry.id), context: context, language: language),
        ]
        if let lunar = try? LunarDate.from(content.date.date) { data["lunar"] = language.lunarDate(lunar) }
        // Mustache would show a section for a nil inside a dictionary: absent keys only.
        if let place = content.place {
            data["place"] = place.name ?? place.region.map { $0.text(english: language == .english) }
                ?? String(format: "%.4f, %.4f", place.latitude ?? 0, place.longitude ?? 0)
        }
        if let weather = content.weather { data["weather"] = weather }
        return WebPage("entry", title: content.title, tab: .timeline, data: data).response(request, context: context)
    }

    /// What the viewer shows of a clip: the player when browsers can play it, else how far its web version is.
    private static func videoItem(_ photo: PhotoID, _ video: VideoFacts) -> [String: Any] {
        var item: [String: Any] = ["id": photo.description]
        switch video.rendition {
        case .none, .ready: item["src"] = PhotoLinks.video(photo)
        case .pending: item["preparing"] = "\(video.renditionProgress ?? 0)%"
        case .failed: item["failed"] = true
        }
        return item
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
        var data: [String: Any] = [
            "action": "\(action)?\(WebCredentials.csrfField)=\(context.session?.csrfToken ?? "")",
            "entryTitle": draft.title, "body": draft.body, "date": draft.date, "tags": draft.tags, "place": draft.place,
            "weather": draft.weather, "latitude": draft.latitude, "longitude": draft.longitude, "version": draft.version,
            "children": children.map {
                ["id": $0.id.description, "name": $0.profile.name, "checked": draft.childIDs.contains($0.id),
                 "born": $0.profile.birthDate.solarDate?.iso ?? ""] as [String: Any]
            },
            "noChildren": children.isEmpty,
            "photos": draft.photoIDs.enumerated().map { index, photo in
                var item: [String: Any] = ["id": photo.description, "thumbnail": PhotoLinks.thumbnail(photo), "number": index + 1]
                if let video = videos[photo] { item["videoBadge"] = PhotoLinks.badge(video) }
                return item
            },
            "cancel": entry.map { "/entries/\($0.id)" } ?? "/",
            "maxFiles": PhotoService.maxFilesPerRequest,
        ]
        if let error { data["error"] = error }
        // The place the coordinates lie in, shown until a name is typed (and the entry's place if none is).
        if let latitude = Double(draft.latitude), let longitude = Double(draft.longitude),
            let region = try? Place(name: nil, latitude: latitude, longitude: longitude).region
        {
            data["placeHint"] = region.text(english: language == .english)
        }
        return WebPage(
            "entry-editor", title: words[entry == nil ? .newEntry : .editEntry], tab: entry == nil ? .write : .timeline,
            data: data, status: error == nil ? .ok : .unprocessableContent
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
                    family: family, id: id, content: content, photos: draft.photoIDs, expecting: Int64(draft.version))
                await stores.photos.release(released)
                saved = entry
            } else {
                saved = try await stores.entries.create(family: family, content: content, photos: draft.photoIDs, author: context.userID)
            }
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
