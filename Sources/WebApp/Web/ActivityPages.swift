import Diary
import Foundation
import Hummingbird
import Services

/// `/activity`: the family's record of who did what (docs/trash.md), newest first, with filters by member (owners),
/// kind and month; every other member sees their own. And the owner's forms that change a member's role or take
/// them out of the family (`/settings/members/{username}/…`), both of which go into the record.
struct ActivityPages {
    let stores: WebStores

    var store: any ActivityStore { stores.database.stores.activity }
    var accounts: any AccountStore { stores.signIn.accounts }

    struct Line {
        let when: String
        let who: String
        let what: String
        let label: String
        let detail: String
    }

    struct Option {
        let value: String
        let name: String
        let selected: Bool
    }

    struct ActivityModel: PageModel {
        let intro: String
        let lines: [Line]
        let empty: Bool
        let members: [Option]?
        var hasMembers: Bool { members != nil }
        let kinds: [Option]
        let month: String
        let older: String?
    }

    func register(on pages: SecureRoutes) {
        pages.get("activity", .viewer, statements: 9) { request, context in try await page(request, context) }
        pages.post("settings/members/:username/role", .owner) { request, context in
            guard let role = context.form["role"].flatMap(Role.init(rawValue:)) else {
                throw Problem(status: .badRequest, detail: "role: must be owner, editor or viewer", field: "role")
            }
            _ = try await accounts.setRole(
                family: try context.member().familyID, username: context.username(), role: role, by: context.userID)
            return AccountPages.redirect("/settings#s-members")
        }
        pages.get("settings/members/:username/remove", .owner, statements: 7) { request, context in
            let words = Words.table(Language(request))
            let asked = context.username()
            guard let name = try await accounts.members(family: try context.member().familyID)
                .first(where: { $0.username.lowercased() == asked.lowercased() })?.username
            else { throw Problem(status: .notFound, detail: "no member named \(asked) in this family") }
            let path = "/settings/members/\(name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "")/remove"
            return WebPage(
                "confirm-delete", title: words[.removeMember], tab: .more,
                model: ConfirmDelete(name: name, action: path, back: "/settings#s-members", consequences: [words[.removeMemberWarning]])
            ).response(request, context: context)
        }
        pages.post("settings/members/:username/remove", .owner) { request, context in
            let name = context.username()
            try await accounts.removeMember(family: try context.member().familyID, username: name, by: context.userID)
            let notice = PageNotice(text: ActivityWord.memberRemoved.text(Language(request), name))
            return notice.attached(to: AccountPages.redirect("/settings#s-members"), request: request)
        }
    }

    private func page(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let language = Language(request)
        let words = Words.table(language)
        let member = try context.member()
        let query = Query(request: request)
        let filter = try ActivityAPI.filter(query, context: context)
        let paging = try query.paging()
        let page = try await store.list(family: member.familyID, filter: filter, after: paging.cursor, limit: paging.limit)
        let owner = member.role == .owner
        let chosen = filter.actorName?.lowercased()
        let members = owner
            ? [Option(value: "", name: words[.everyone], selected: chosen == nil)]
                + (try await accounts.members(family: member.familyID)).map {
                    Option(value: $0.username, name: $0.username, selected: $0.username.lowercased() == chosen)
                }
            : nil
        let kinds = [Option(value: "", name: words[.everyKind], selected: filter.kind == nil)]
            + ActivityKind.allCases.map { kind in
                Option(value: kind.rawValue, name: words.named(activity: "kind_\(kind.rawValue)"), selected: filter.kind == kind)
            }
        let lines = page.items.map { line in
            Line(
                when: ReactionPages.when(line.at, language), who: line.actorName ?? words[.formerMember],
                what: "\(words.named(activity: "kind_\(line.kind.rawValue)")) · \(words.named(activity: "action_\(line.action.rawValue)"))",
                label: line.label, detail: Self.detail(line, words))
        }
        var older: String?
        if let next = page.next {
            var items = [URLQueryItem(name: "cursor", value: next.description)]
            if let name = filter.actorName { items.append(URLQueryItem(name: "member", value: name)) }
            if let kind = filter.kind { items.append(URLQueryItem(name: "kind", value: kind.rawValue)) }
            if let month = filter.month { items.append(URLQueryItem(name: "month", value: month.description)) }
            var components = URLComponents()
            components.path = "/activity"
            components.queryItems = items
            older = components.string
        }
        return WebPage(
            "activity", title: words[.activity], tab: .more,
            model: ActivityModel(
                intro: owner ? words[.activityIntro] : words[.activityIntroOwn], lines: lines, empty: lines.isEmpty, members: members,
                kinds: kinds, month: filter.month?.description ?? "", older: older)
        ).response(request, context: context)
    }

    /// A line's detail in words: the roles of a change, the version put back, what a backup held.
    static func detail(_ line: Activity, _ words: Words) -> String {
        let role = { (raw: Substring) in words.named("role_\(raw)") ?? String(raw) }
        switch line.action {
        case .roleChanged:
            let roles = line.detail.split(separator: ">")
            return roles.count == 2 ? "\(role(roles[0])) → \(role(roles[1]))" : ""
        case .invited, .joined:
            return line.detail.isEmpty ? "" : role(Substring(line.detail))
        case .restored where line.detail.hasPrefix("version "):
            return TrashWord.versionNumber.text(words.language, String(line.detail.dropFirst("version ".count)))
        case .downloaded:
            return line.detail == "sensitive" ? words[.withResidentNumbers] : ""
        case .created where line.detail.hasPrefix("import "):
            return ActivityWord.imported.text(words.language, String(line.detail.dropFirst("import ".count)))
        case .created where line.kind == .photo:
            return ActivityWord.photosCount.text(words.language, line.detail)
        case .created where line.kind == .shareLink:
            return ActivityWord.entriesCount.text(words.language, line.detail)
        case .revoked where !line.detail.isEmpty:
            return line.detail  // how many links "revoke all mine" ended
        case .created where line.kind == .token:
            return line.detail.isEmpty ? "" : role(Substring(line.detail))
        default:
            return ""
        }
    }
}

extension Words {
    /// An activity word whose name is made at run time (`kind_entry`, `action_created`).
    func named(activity name: String) -> String { ActivityWord(rawValue: name)?.text(language) ?? name }
}
