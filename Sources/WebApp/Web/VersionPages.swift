import Diary
import Foundation
import Hummingbird
import KoreanCalendar
import Services

/// An entry's earlier versions (`/entries/{id}/versions`), one of them beside the entry as it is now with what
/// changed marked, and putting it back (docs/trash.md). Plain pages and forms, so all of it works without the script.
struct VersionPages {
    let stores: WebStores

    struct Line {
        let text: String
        let removed: Bool
        let added: Bool
    }

    struct Row {
        let name: String
        let then: String
        let now: String
        let changed: Bool
    }

    struct ListItem {
        let link: String
        let name: String
        let title: String
        let saved: String
    }

    struct VersionsModel: PageModel {
        let intro: String
        let back: String
        let items: [ListItem]
        let empty: Bool
    }

    struct CompareModel: PageModel {
        let heading: String
        let saved: String
        let rows: [Row]
        let body: [Line]
        let bodyChanged: Bool
        let action: String
        let back: String
        /// Where an owner deletes this version for good.
        var purge: String?
    }

    func register(on pages: SecureRoutes) {
        pages.get("entries/:id/versions", .editor, statements: 17) { request, context in
            let language = Language(request)
            let family = try context.member().familyID
            let entry = try await stores.entries.get(family: family, id: try context.id(of: "entry"))
            let versions = try await stores.entries.versions(family: family, id: entry.id)
            let items = versions.map { version in
                ListItem(
                    link: "/entries/\(entry.id)/versions/\(version.number)", name: TrashWord.versionNumber.text(language, "\(version.number)"),
                    title: version.content.title, saved: Self.saved(version, language))
            }
            return WebPage(
                "versions", title: "\(entry.content.title) · \(TrashWord.versions.text(language))", tab: .timeline,
                model: VersionsModel(intro: TrashWord.versionsIntro.text(language), back: "/entries/\(entry.id)", items: items, empty: items.isEmpty)
            ).response(request, context: context)
        }
        pages.get("entries/:id/versions/:number", .editor, statements: 12) { request, context in
            let language = Language(request)
            let family = try context.member().familyID
            let entry = try await stores.entries.get(family: family, id: try context.id(of: "entry"))
            guard let number = context.parameters.get("number").flatMap({ Int($0) }),
                let version = try await stores.entries.versions(family: family, id: entry.id).first(where: { $0.number == number })
            else { throw Problem(status: .notFound, detail: "no such version of this entry") }
            let names = Dictionary(uniqueKeysWithValues: try await stores.allChildren(family).map { ($0.id, $0.profile.name) })
            var model = Self.compare(version, with: entry, names: names, language: language)
            if try context.member().role == .owner { model.purge = "/entries/\(entry.id)/versions/\(number)/purge" }
            return WebPage(
                "version", title: "\(entry.content.title) · \(TrashWord.versionNumber.text(language, "\(number)"))", tab: .timeline,
                model: model
            ).response(request, context: context)
        }
        pages.post("entries/:id/versions/:number/purge", .owner) { request, context in
            let entry: EntryID = try context.id(of: "entry")
            guard let number = context.parameters.get("number").flatMap({ Int($0) }) else {
                throw Problem(status: .notFound, detail: "no such version of this entry")
            }
            await stores.photos.release(try await stores.entries.purgeVersion(family: try context.member().familyID, id: entry, number: number))
            let notice = PageNotice(text: TrashWord.purgedVersion.text(Language(request), "\(number)"))
            return notice.attached(to: AccountPages.redirect("/entries/\(entry)/versions"), request: request)
        }
        pages.post("entries/:id/versions/:number/restore", .editor) { request, context in
            let family = try context.member().familyID
            let entry: EntryID = try context.id(of: "entry")
            guard let number = context.parameters.get("number").flatMap({ Int($0) }) else {
                throw Problem(status: .notFound, detail: "no such version of this entry")
            }
            let (restored, released) = try await stores.entries.restoreVersion(family: family, id: entry, number: number, by: context.userID)
            await stores.photos.release(released)
            await context.record(.restored, restored, detail: "version \(number)")
            let notice = PageNotice(text: TrashWord.restoredVersion.text(Language(request), "\(number)"))
            return notice.attached(to: AccountPages.redirect("/entries/\(entry)"), request: request)
        }
    }

    /// `2번째 판 · mom · 11월 24일 오전 10:30 저장`.
    static func saved(_ version: EntryVersion, _ language: Language) -> String {
        TrashWord.savedByOn.text(
            language, version.savedByName ?? Words.table(language)[.formerMember], ReactionPages.when(version.savedAt, language))
    }

    /// A version beside the entry as it is now: each field then and now, the changed ones marked, and the body's lines.
    static func compare(_ version: EntryVersion, with entry: Entry, names: [ChildID: String], language: Language) -> CompareModel {
        let words = Words.table(language)
        let (then, now) = (version.content, entry.content)
        func children(_ content: EntryContent) -> String {
            content.childIDs.map { names[$0] ?? "—" }.joined(separator: ", ")
        }
        func place(_ content: EntryContent) -> String {
            guard let place = content.place else { return "" }
            return place.name ?? place.foundText(english: language == .english) ?? ""
        }
        func when(_ content: EntryContent) -> String { "\(language.longDate(content.date.date)) \(language.time(content.date.time))" }
        let photos = { (count: Int) in TrashWord.photoCount.text(language, "\(count)") }
        let rows = [
            (words[.entryTitle], then.title, now.title), (words[.dateTime], when(then), when(now)),
            (words[.children], children(then), children(now)), (words[.tags], then.tags.joined(separator: ", "), now.tags.joined(separator: ", ")),
            (words[.place], place(then), place(now)), (words[.weather], then.weather ?? "", now.weather ?? ""),
            (words[.photos], photos(version.photoIDs.count) + (version.photoIDs == entry.photoIDs ? "" : " ≠"), photos(entry.photoIDs.count)),
        ].map { Row(name: $0.0, then: $0.1, now: $0.2, changed: $0.1 != $0.2) }
        let lines = LineDiff.compare(then.body, now.body).map { change in
            switch change {
            case .kept(let text): Line(text: text, removed: false, added: false)
            case .removed(let text): Line(text: text, removed: true, added: false)
            case .added(let text): Line(text: text, removed: false, added: true)
            }
        }
        return CompareModel(
            heading: TrashWord.versionNumber.text(language, "\(version.number)"), saved: saved(version, language), rows: rows, body: lines,
            bodyChanged: then.body != now.body, action: "/entries/\(entry.id)/versions/\(version.number)/restore",
            back: "/entries/\(entry.id)/versions")
    }
}
