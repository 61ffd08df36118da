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
        pages.post("entries/:id/comments", .member) { request, context in
            let entry: EntryID = try context.id(of: "entry")
            let member = try context.member()
            do {
                _ = try await store.addComment(family: member.familyID, on: .entry(entry), author: try context.user(), text: context.form["text"] ?? "")
            } catch let error as ValidationError {
                throw Problem(status: .unprocessableContent, detail: error.description, field: "text")
            }
            return AccountPages.redirect("/entries/\(entry)#comments")
        }
        pages.get("comments/:id/edit", .member) { request, context in
            let comment = try await own(context)
            return try await editor(request, context, comment: comment, text: comment.text, error: nil)
        }
        pages.post("comments/:id/edit", .member) { request, context in
            let comment = try await own(context)
            let text = context.form["text"] ?? ""
            do {
                _ = try await store.editComment(family: comment.familyID, id: comment.id, author: try context.user(), text: text)
            } catch let error as ValidationError {
                return try await editor(request, context, comment: comment, text: text, error: error.description)
            }
            return AccountPages.redirect(Self.place(of: comment))
        }
        pages.post("comments/:id/delete", .member) { request, context in
            let member = try context.member()
            let id: CommentID = try context.id(of: "comment")
            let comment = try await store.comment(family: member.familyID, id: id)
            try await ReactionsAPI.requireAuthor(store, family: member.familyID, id: id, user: try context.user(), owner: member.role == .owner)
            try await store.deleteComment(family: member.familyID, id: id, by: try context.user(), asOwner: member.role == .owner)
            return AccountPages.redirect(Self.place(of: comment))
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
        try await ReactionsAPI.requireAuthor(store, family: member.familyID, id: id, user: try context.user(), owner: false)
        return try await store.comment(family: member.familyID, id: id)
    }

    private func editor(_ request: Request, _ context: AppRequestContext, comment: Comment, text: String, error: String?) async throws -> Response {
        var data: [String: Any] = ["id": comment.id.description, "text": text, "cancel": Self.place(of: comment)]
        if let error { data["error"] = error }
        return WebPage(
            "comment-editor", title: Words.table(Language(request))[.editComment], tab: .timeline, data: data,
            status: error == nil ? .ok : .unprocessableContent
        ).response(request, context: context)
    }

    /// Where a comment is shown: its entry's page (a photo's comments are the API's; the web shows a photo's hearts).
    static func place(of comment: Comment) -> String {
        switch comment.target {
        case .entry(let entry): "/entries/\(entry)#comments"
        case .photo: "/timeline"
        }
    }

    /// What the entry page shows under the entry: the heart button and who gave one, the comments in order with
    /// edit/delete where the asker may, and the comment box.
    func section(entry: Entry, context: AppRequestContext, language: Language) async throws -> [String: Any] {
        let member = try context.member()
        let user = try context.user()
        let hearts = try await store.hearts(family: member.familyID, on: .entry(entry.id))
        let comments = try await store.comments(family: member.familyID, on: .entry(entry.id))
        let words = Words.table(language)
        return [
            "hearted": hearts.contains { $0.userID == user }, "heartCount": hearts.count,
            "heartNames": hearts.map(\.userName).joined(separator: ", "), "commentCount": comments.count,
            "comments": comments.map { comment -> [String: Any] in
                var item: [String: Any] = [
                    "id": comment.id.description, "author": comment.authorName ?? words[.formerMember], "text": comment.text,
                    "when": Self.when(comment.createdAt, language), "iso": ISO8601DateFormatter().string(from: comment.createdAt),
                ]
                if comment.modifiedAt > comment.createdAt { item["edited"] = true }
                if comment.authorID == user { item["canEdit"] = true }
                if comment.authorID == user || member.role == .owner { item["canDelete"] = true }
                return item
            },
        ]
    }

    /// A photo's heart in the viewer: how many, and whether one is the asker's.
    func photoHearts(_ photos: [PhotoID], context: AppRequestContext) async throws -> [PhotoID: (count: Int, mine: Bool)] {
        let member = try context.member()
        let user = try context.user()
        var result: [PhotoID: (Int, Bool)] = [:]
        for photo in photos {
            let hearts = try await store.hearts(family: member.familyID, on: .photo(photo))
            result[photo] = (hearts.count, hearts.contains { $0.userID == user })
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
