import Diary
import Foundation
import Hummingbird
import KoreanCalendar
import Services

/// Hearts and comments in the web app: under an entry (and a heart on each photo of its viewer), by every member —
/// a grandparent answers from a phone. Plain forms, so they work without the script.
struct ReactionPages {
    let stores: WebStores

    var store: any ReactionStore { stores.database.stores.reactions }

    func register(on pages: SecureRoutes) {
        pages.post("entries/:id/heart", .member) { request, context in
            let entry: EntryID = try context.id(of: "entry")
            try await toggle(.entry(entry), context)
            return AccountPages.redirect("/entries/\(entry)#reactions")
        }
        pages.post("photos/:id/heart", .member) { request, context in
            try await toggle(.photo(try context.id(of: "photo")), context)
            return AccountPages.redirect(WebCredentials.safeRedirect(context.form["back"]))
        }
        for kind in ["entries", "photos"] {
            pages.post("\(kind)/:id/comments", .member) { request, context in
                let target = try ReactionsAPI.target(kind, context)
                let member = try context.member()
                do {
                    let comment = try await store.addComment(
                        family: member.familyID, on: target, author: try context.user(), text: context.form["text"] ?? "")
                    await context.record(.created, comment)
                } catch let error as ValidationError {
                    throw Problem(status: .unprocessableContent, detail: error.text(Language(request)), field: "text")
                }
                let back = context.form["back"].map { WebCredentials.safeRedirect($0) } ?? Self.path(target)
                return AccountPages.redirect("\(back)#comments")
            }
        }
        pages.get("photos/:id", .viewer, statements: 29) { request, context in try await photo(request, context) }
        pages.get("comments/:id/edit", .member, statements: 8) { request, context in
            let comment = try await own(context)
            return try await editor(request, context, comment: comment, text: comment.text, error: nil)
        }
        pages.post("comments/:id/edit", .member) { request, context in
            let comment = try await own(context)
            let text = context.form["text"] ?? ""
            do {
                await context.record(.edited, try await store.editComment(family: comment.familyID, id: comment.id, author: try context.user(), text: text))
            } catch let error as ValidationError {
                return try await editor(request, context, comment: comment, text: text, error: error.text(Language(request)))
            }
            return AccountPages.redirect(Self.place(of: comment))
        }
        pages.post("comments/:id/delete", .member) { request, context in
            let member = try context.member()
            let id: CommentID = try context.id(of: "comment")
            let comment = try await ReactionsAPI.requireAuthor(
                store, family: member.familyID, id: id, user: try context.user(), owner: member.role == .owner)
            let item = try await store.deleteComment(family: member.familyID, id: id, by: try context.user(), asOwner: member.role == .owner)
            return await TrashPages.deleted(item, then: Self.place(of: comment), request: request, context: context)
        }
    }

    private func toggle(_ target: ReactionTarget, _ context: AppRequestContext) async throws {
        _ = try await store.setHeart(
            family: try context.member().familyID, on: target, user: try context.user(), on: context.form["on"] == "1")
    }

    /// The asker's own comment (403 for someone else's).
    private func own(_ context: AppRequestContext) async throws -> Comment {
        let member = try context.member()
        let id: CommentID = try context.id(of: "comment")
        return try await ReactionsAPI.requireAuthor(store, family: member.familyID, id: id, user: try context.user(), owner: false)
    }

    private func editor(_ request: Request, _ context: AppRequestContext, comment: Comment, text: String, error: String?) async throws -> Response {
        let model = CommentEditorModel(id: comment.id.description, text: text, cancel: Self.place(of: comment), error: error)
        return WebPage(
            "comment-editor", title: Words.table(Language(request))[.editComment], tab: .timeline, model: model,
            status: error == nil ? .ok : .unprocessableContent
        ).response(request, context: context)
    }

    /// Where a comment is shown: its entry's page or its photo's.
    static func place(of comment: Comment) -> String { "\(path(comment.target))#comments" }

    /// `/entries/{id}` or `/photos/{id}`: the page of a target, and the start of its forms' addresses.
    static func path(_ target: ReactionTarget) -> String {
        switch target {
        case .entry(let entry): "/entries/\(entry)"
        case .photo(let photo): "/photos/\(photo)"
        }
    }

    /// `/photos/{id}?entry=…`: one photo or clip large, with the children's age when it was taken, its hearts and
    /// its comments; `entry` (the viewer's link) gives the way back.
    private func photo(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let language = Language(request)
        let words = Words.table(language)
        let family = try context.member().familyID
        let id: PhotoID = try context.id(of: "photo")
        let photo = try await PhotosAPI.shown(stores.photos, context)
        var model = PhotoModel(
            large: PhotoLinks.thumbnail(id, large: true), original: PhotoLinks.original(id), alt: words[photo.video == nil ? .photo : .video],
            reactions: try await section(
                .photo(id), context: context, language: language, back: "/photos/\(id)" + (request.uri.query.map { "?\($0)" } ?? "")),
            video: photo.video == nil ? nil : PhotoLinks.video(id))
        var title = words[photo.video == nil ? .photo : .video]
        if let entryID = Query(request: request).string("entry").flatMap(EntryID.init),
            let entry = try? await stores.entries.get(family: family, id: entryID), entry.photoIDs.contains(id)
        {
            title = entry.content.title
            model.entryLink = "/entries/\(entry.id)"
            model.entryTitle = entry.content.title
            let day = photo.takenDay ?? entry.content.date.date
            model.ages = ChildAges(try await stores.allChildren(family)).line(entry.content.childIDs, on: day, language: language)
        }
        return WebPage("photo", title: title, tab: .timeline, model: model).response(request, context: context)
    }

    /// What the entry page shows under the entry: the heart button and who gave one, the comments in order with
    /// edit/delete where the asker may, and the comment box.
    /// `back`: where the forms return (the page's own address with its query).
    func section(_ target: ReactionTarget, context: AppRequestContext, language: Language, back: String? = nil) async throws -> Section {
        let member = try context.member()
        let user = try context.user()
        let hearts = try await store.hearts(family: member.familyID, on: target)
        let comments = try await store.comments(family: member.familyID, on: target)
        let words = Words.table(language)
        return Section(
            path: Self.path(target), back: back ?? Self.path(target), hearted: hearts.contains { $0.userID == user }, heartCount: hearts.count,
            commentCount: comments.count,
            comments: comments.map { comment in
                // Each flag is there, true or false: a missing one would be looked up in the page around it (the
                // layout's `canEdit` is the member's role, and showed an edit link on other members' comments).
                CommentItem(
                    id: comment.id.description, author: comment.authorName ?? words[.formerMember], text: comment.text,
                    when: Self.when(comment.createdAt, language), iso: ISO8601DateFormatter().string(from: comment.createdAt),
                    edited: comment.modifiedAt > comment.createdAt, canEdit: comment.authorID == user,
                    canDelete: comment.authorID == user || member.role == .owner)
            },
            // A section opens for any string, even an empty one (swift-mustache): the names only when there are some.
            heartNames: hearts.isEmpty ? nil : hearts.map(\.userName).joined(separator: ", "))
    }

    /// The hearts and comments under an entry or a photo (`reactions.mustache`).
    struct Section {
        let path: String
        let back: String
        let hearted: Bool
        let heartCount: Int
        let commentCount: Int
        let comments: [CommentItem]
        let heartNames: String?
    }

    struct CommentItem {
        let id: String
        let author: String
        let text: String
        let when: String
        let iso: String
        let edited: Bool
        let canEdit: Bool
        let canDelete: Bool
    }

    /// What `comment-editor.mustache` shows.
    struct CommentEditorModel: PageModel {
        let id: String
        let text: String
        let cancel: String
        let error: String?
    }

    /// What `photo.mustache` shows: one photo or clip large, its reactions, and the way back to its entry.
    struct PhotoModel: PageModel {
        let large: String
        let original: String
        let alt: String
        let reactions: Section
        let video: String?
        var entryLink: String?
        var entryTitle: String?
        var ages: String?
    }

    /// A photo's heart and comments in the viewer: how many hearts, whether one is the asker's, how many comments.
    func photoReactions(_ photos: [PhotoID], context: AppRequestContext) async throws -> [PhotoID: (count: Int, mine: Bool, comments: Int)] {
        let member = try context.member()
        let user = try context.user()
        var result: [PhotoID: (Int, Bool, Int)] = [:]
        for photo in photos {
            let hearts = try await store.hearts(family: member.familyID, on: .photo(photo))
            let comments = try await store.comments(family: member.familyID, on: .photo(photo))
            result[photo] = (hearts.count, hearts.contains { $0.userID == user }, comments.count)
        }
        return result
    }

    /// `11월 24일 오전 10:30` on Seoul's clock (the family's).
    static func when(_ date: Date, _ language: Language) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Asia/Seoul") ?? .gmt
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        guard let day = try? SolarDate(year: parts.year ?? 2000, month: parts.month ?? 1, day: parts.day ?? 1),
            let time = try? ClockTime(hour: parts.hour ?? 0, minute: parts.minute ?? 0)
        else { return "" }
        return "\(language.shortDate(day)) \(language.time(time))"
    }
}
