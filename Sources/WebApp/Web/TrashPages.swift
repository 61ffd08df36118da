import Diary
import Foundation
import Hummingbird
import Services

/// The 휴지통 page, restore and purge from it, and the undo notice a delete leaves (docs/trash.md). Plain forms, so
/// all of it works without the script; the script only hides the notice after a few seconds.
struct TrashPages {
    let stores: WebStores

    var store: any TrashStore { stores.database.stores.trash }

    /// The redirect after a delete (which the family's activity records): to `location`, where the page says what went
    /// to the trash and offers 실행 취소.
    static func deleted(_ item: TrashItem, then location: String, request: Request, context: AppRequestContext) async -> Response {
        await context.record(deleted: item)
        let text = TrashWord.movedToTrash.text(Language(request), item.label)
        return PageNotice(text: text, undo: item.id.description).attached(to: AccountPages.redirect(location), request: request)
    }

    struct Item {
        let id: String
        let label: String
        let thumbnail: String?
        let who: String
        let left: String
        let canRestore: Bool
        /// What it belongs to (its entry, its child) is in the trash too: the restore brings both, and says so.
        let withParent: String?
    }

    struct Group {
        let kind: String
        let items: [Item]
    }

    struct TrashModel: PageModel {
        let intro: String
        let groups: [Group]
        let empty: Bool
        let days: Int
    }

    func register(on pages: SecureRoutes) {
        pages.get("trash", .viewer, statements: 11) { request, context in try await page(request, context) }
        pages.post("trash/:id/restore", .member) { request, context in
            let family = try context.member().familyID
            let item = try await store.get(family: family, id: try context.id(of: "trash item"))
            guard try Self.mayRestore(item, context) else { throw Problem(status: .notFound, detail: "no trash item with id \(item.id)") }
            let restored = try await store.restore(
                family: family, id: item.id, withParent: context.form["withParent"] == "true", as: .member(try context.member()))
            await context.record(.restored, trashed: restored.map(\.item))
            let language = Language(request)
            var notes = [TrashWord.restored.text(language, item.label)]
            let leftOut = restored.flatMap(\.leftOut)
            if !leftOut.isEmpty { notes.append(TrashWord.restoredLeftOut.text(language, "\(leftOut.count)")) }
            if restored.contains(where: { $0.item.shareLinks > 0 }) { notes.append(TrashWord.restoredShareLinks.text(language)) }
            return PageNotice(text: notes.joined(separator: " ")).attached(to: AccountPages.redirect(Self.place(of: item)), request: request)
        }
        pages.post("trash/:id/purge", .owner) { _, context in
            let family = try context.member().familyID
            let item = try await store.get(family: family, id: try context.id(of: "trash item"))
            await stores.photos.release(try await store.purge(family: family, id: item.id))
            await context.record(.purged, trashed: [item])
            return AccountPages.redirect("/trash")
        }
        pages.get("trash/empty", .owner, statements: 6) { request, context in
            let words = Words.table(Language(request))
            return WebPage(
                "confirm-delete", title: words[.emptyTrash], tab: .more,
                model: ConfirmDelete(name: words[.trash], action: "/trash/empty", back: "/trash", consequences: [words[.emptyTrashWarning]])
            ).response(request, context: context)
        }
        pages.post("trash/empty", .owner) { _, context in
            await stores.photos.release(try await store.empty(family: try context.member().familyID))
            await context.record(.purged, .trash, id: nil)
            return AccountPages.redirect("/trash")
        }
        pages.post("trash/settings", .owner) { request, context in
            let family = try context.member().familyID
            guard let days = Int(context.form["days"] ?? "") else {
                throw Problem(status: .unprocessableContent, detail: Words.table(Language(request))[.keepDays], field: "days")
            }
            do {
                try await store.setRetention(family: family, days: days)
            } catch let error as ValidationError {
                throw Problem(status: .unprocessableContent, detail: error.text(Language(request)), field: "days")
            }
            return AccountPages.redirect("/trash")
        }
    }

    /// Owners and editors restore anything; a member what they deleted themselves (a viewer's own comment).
    static func mayRestore(_ item: TrashItem, _ context: AppRequestContext) throws -> Bool {
        TrashRestorer.member(try context.member()).may(restore: item)
    }

    /// Where a restored item is: its entry (a photo's, a comment's), the memo, the child's page or health page.
    static func place(of item: TrashItem) -> String {
        switch item.kind {
        case .entry: "/entries/\(item.itemID)"
        case .memo: "/memos/\(item.itemID)"
        case .photo: item.parent.map { "/entries/\($0.id)" } ?? "/trash"
        case .comment: item.parent.map { "/entries/\($0.id)#comments" } ?? "/trash"
        case .child: "/?child=\(item.itemID)"
        case .event, .measurement, .vaccination: item.parent.map { "/health?child=\($0.id)" } ?? "/health"
        case .anniversary: "/anniversaries"
        }
    }

    private func page(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let language = Language(request)
        let words = Words.table(language)
        let family = try context.member().familyID
        let (all, days) = try await store.list(family: family)
        let items = try all.filter { try Self.mayRestore($0, context) }
        let now = stores.database.clock.now()
        let groups = TrashKind.allCases.compactMap { kind -> Group? in
            let ofKind = items.filter { $0.kind == kind }
            guard !ofKind.isEmpty else { return nil }
            return Group(
                kind: TrashWord(rawValue: "trashKind_\(kind.rawValue)")?.text(language) ?? kind.rawValue,
                items: ofKind.map { item in
                    let left = item.daysLeft(keepingDays: days, now: now)
                    return Item(
                        id: item.id.description, label: item.label, thumbnail: item.photoIDs.first.map { PhotoLinks.thumbnail($0) },
                        who: TrashWord.deletedByOn.text(
                            language, item.deletedByName ?? words[.formerMember], ReactionPages.when(item.deletedAt, language)),
                        left: left <= 1 ? words[.lastDay] : TrashWord.daysLeft.text(language, "\(left)"), canRestore: true,
                        withParent: item.waitsFor == nil ? nil : words[item.parent?.kind == .child ? .restoreWithChild : .restoreWithEntry])
                })
        }
        return WebPage(
            "trash", title: words[.trash], tab: .more,
            model: TrashModel(
                intro: TrashWord.trashIntro.text(language, "\(days)"), groups: groups, empty: items.isEmpty, days: days)
        ).response(request, context: context)
    }
}
