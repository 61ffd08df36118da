import Backup
import Diary
import Files
import Foundation
import Hummingbird
import Installation
import NIOCore
import Persistence
import Services

/// `/settings`: the account (family switching, password, sign-out), language, the family's members and
/// invitations, share links, calendar feeds and API tokens. Secrets (a new token, invitation or feed address) are
/// shown once, on the page that answers the post that made them.
struct SettingsPages {
    let stores: WebStores

    func register(on pages: SecureRoutes) {
        pages.get("settings", .signedIn, statements: 44) { request, context in
            let done = request.uri.queryParameters["done"] == "password"
            return try await page(request, context: context, notice: done ? "passwordChanged" : nil)
        }
        pages.post("account/family", .signedIn) { _, context in
            guard let session = context.session else { throw Problem(status: .conflict, detail: "only a browser session switches family") }
            guard let family = context.form["familyId"].flatMap(FamilyID.init) else {
                throw Problem(status: .badRequest, detail: "familyId: not a family", field: "familyId")
            }
            try await stores.signIn.sessions.switchFamily(session, to: family)
            return AccountPages.redirect("/settings")
        }
        pages.post("account/tokens", .viewer) { request, context in
            let role = context.form["role"].flatMap { $0.isEmpty ? nil : Role(rawValue: $0) }
            let (token, made) = try await stores.signIn.accounts.createToken(
                for: try context.member(), name: context.form["name"] ?? "", role: role)
            await context.record(.created, made, detail: made.role?.rawValue ?? "")
            return try await page(request, context: context, secret: ("newTokenOnce", token))
        }
        pages.post("account/tokens/:id/revoke", .viewer) { _, context in
            let id: APITokenID = try context.id(of: "token")
            try await stores.signIn.accounts.revokeToken(id, by: try context.member())
            await context.record(.revoked, .token, id: id.description)
            return AccountPages.redirect("/settings")
        }
        pages.post("settings/invitations", .owner) { request, context in
            guard let role = context.form["role"].flatMap(Role.init(rawValue:)) else {
                throw Problem(status: .badRequest, detail: "role: must be owner, editor or viewer", field: "role")
            }
            let days = try Invitation.lifetime.checked(context.form.text("days").flatMap { Int($0) })
            let (token, invitation) = try await stores.sharing.invite(by: try context.member(), role: role, days: days)
            await context.record(.invited, invitation)
            return try await page(request, context: context, secret: ("newInvitationOnce", Links.absolute(request, "/invite/\(token)")))
        }
        pages.post("settings/invitations/:id/revoke", .owner) { _, context in
            let id: InvitationID = try context.id(of: "invitation")
            try await stores.sharing.revokeInvitation(id, family: try context.member().familyID)
            await context.record(.revoked, .invitation, id: id.description)
            return AccountPages.redirect("/settings")
        }
        pages.post("settings/share-links", .editor) { request, context in
            let entries = try ShareLink.entries(context.form.all("entryId").compactMap(EntryID.init))
            let days = try ShareLink.lifetime.checked(context.form.text("days").flatMap { Int($0) })
            let label = try Validate.optionalName(context.form.text("label"), field: "label", maxLength: EntryContent.maxTitleLength)
            let (token, link) = try await stores.sharing.share(by: try context.member(), entries: entries, label: label, days: days)
            await context.record(.created, link, detail: "\(link.entryIDs.count)")
            return try await page(request, context: context, secret: ("newShareLinkOnce", Links.absolute(request, "/s/\(token)")))
        }
        pages.post("settings/share-links/:id/revoke", .editor) { _, context in
            let id: ShareLinkID = try context.id(of: "share link")
            try await stores.sharing.revokeShareLink(id, family: try context.member().familyID)
            await context.record(.revoked, .shareLink, id: id.description)
            return AccountPages.redirect("/settings")
        }
        pages.post("settings/feeds", .viewer) { request, context in
            let label = try Validate.optionalName(context.form.text("label"), field: "label", maxLength: EntryContent.maxTitleLength)
            let (token, _) = try await stores.sharing.makeFeed(
                by: try context.member(), label: label, includesHolidays: context.form["holidays"] == "true")
            return try await page(request, context: context, secret: ("newFeedOnce", Links.absolute(request, "/feeds/\(token).ics")))
        }
        pages.get("settings/backup.zip", .owner) { request, context in try await backup(request, context: context) }
        // A stolen session may have made share links in any of the user's families: one button ends them all.
        pages.post("settings/my-share-links/revoke", .session) { request, context in
            let revoked = try await stores.sharing.revokeShareLinks(createdBy: try context.user())
            // In the record of the family this browser acts for (the links may be of several).
            if revoked > 0 { await context.record(.revoked, .shareLink, id: nil, detail: "\(revoked)") }
            return try await page(request, context: context, notice: "myShareLinksRevoked")
        }
        pages.post("settings/feeds/:id/revoke", .viewer) { _, context in
            try await stores.sharing.revokeFeed(try context.id(of: "feed"), by: try context.member())
            return AccountPages.redirect("/settings")
        }
    }

    private func page(
        _ request: Request, context: AppRequestContext, notice: String? = nil, secret: (label: String, value: String)? = nil
    ) async throws -> Response {
        let language = Language(request)
        let words = Words.table(language)
        let accounts = stores.signIn.accounts
        let account = try await accounts.account(try context.user())
        let mine = try await stores.sharing.shareLinks(createdBy: try context.user())
        let roleName = { (role: Role) in words.named("role_\(role.rawValue)") ?? role.rawValue }
        var model = Model(
            username: account.username,
            otherFamilies: account.families.filter { $0.family.id != context.membership?.familyID }.map {
                Named(id: $0.family.id.description, name: $0.family.name, role: roleName($0.role))
            },
            languages: [
                LanguageChoice(code: "ko", name: "한국어", selected: language == .korean),
                LanguageChoice(code: "en", name: "English", selected: language == .english),
            ],
            notice: notice.map { words.named($0) ?? $0 },
            myShareLinks: mine.isEmpty ? nil : words[.myShareLinks].replacingOccurrences(of: "%d", with: "\(mine.count)"),
            secret: secret.map { Secret(label: words.named($0.label) ?? "", value: $0.value) })
        if let member = context.membership {
            let family = account.families.first { $0.family.id == member.familyID }
            model.family = Named(id: member.familyID.description, name: family?.family.name ?? "", role: roleName(member.role))
            model.members = try await accounts.members(family: member.familyID).map { listed in
                MemberRow(
                    name: listed.username, role: roleName(listed.role),
                    path: "/settings/members/\(listed.username.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")",
                    choices: Role.allCases.map { RoleChoice(value: $0.rawValue, name: roleName($0), selected: $0 == listed.role) })
            }
            let now = stores.today.clock.now()
            if member.role == .owner {
                model.invitations = try await stores.sharing.invitations(family: member.familyID)
                    .filter { $0.acceptedAt == nil && $0.expiresAt > now }
                    .map {
                        InvitationRow(
                            id: $0.id.description, role: roleName($0.role), until: Self.day($0.expiresAt, language), by: $0.createdByName ?? "")
                    }
            }
            if member.role.includes(.editor) {
                model.shareLinks = try await stores.sharing.shareLinks(family: member.familyID)
                    .filter { $0.expiresAt > now }
                    .map { link in
                        ShareLinkRow(
                            id: link.id.description, label: link.label ?? words[.shareLink], count: link.entryIDs.count,
                            until: Self.day(link.expiresAt, language))
                    }
            }
            model.feeds = try await stores.sharing.feeds(family: member.familyID).map {
                Labelled(id: $0.id.description, label: $0.label ?? words[.calendarFeed])
            }
            model.tokens = try await accounts.tokens(of: member).map {
                Named(id: $0.id.description, name: $0.name, role: roleName($0.role ?? member.role))
            }
            model.roles = Role.allCases.filter { member.role.includes($0) }.map { Option(value: $0.rawValue, name: roleName($0)) }
            model.mail = try await mailForm(member, language: language)
            model.mailSaved = request.uri.queryParameters["done"] == "mail"
            model.serverSendsMail = stores.sendsMail
            if member.role == .owner {
                model.snapshots = try await SnapshotLine.read(stores, language: language).map { line in
                    SnapshotCard(text: line.text, troubled: line.troubled, target: stores.snapshots.map { ActivityWord.snapshotTo.text(language, $0.description) } ?? "")
                } ?? SnapshotCard(text: ActivityWord.snapshotsOff.text(language), troubled: false, target: "")
                let host = WeatherRoutes.host(stores.weatherURL)
                model.weather = WeatherForm(
                    hint: words[.weatherLookupHint].replacingOccurrences(of: "%@", with: host),
                    saved: request.uri.queryParameters["done"] == "weather",
                    on: try await stores.database.stores.weather.lookupIsOn(family: member.familyID))
                model.strongSignIn = try await stores.signIn.accounts.strongSignIn(family: member.familyID)
                model.storage = try await Self.storage(stores, family: member.familyID, language: language)
            }
        }
        return WebPage("settings", title: words[.settings], tab: .more, model: model).response(request, context: context)
    }

    /// The owner's family as a backup ZIP (docs/backup.md): its members' accounts and everything it owns, never
    /// another family's. Written to a temporary file that is unlinked at once and streamed from its handle.
    private func backup(_ request: Request, context: AppRequestContext) async throws -> Response {
        let member = try context.member()
        let family = member.familyID
        let folder = stores.dataFolder.appendingPathComponent(".backups")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("\(UUID().uuidString).zip")
        defer { try? FileManager.default.removeItem(at: file) }
        let sensitive = request.uri.queryParameters["sensitive"] == "true"
        try await BackupArchive.write(
            stores.database, photos: stores.photos.storage, to: file, includeSensitive: sensitive, family: family,
            credentialsOf: member.userID, app: "saessak")
        // Said in the record as made, resident numbers or not (the record itself is in the next backup, not this one).
        await context.record(.downloaded, .backup, id: nil, detail: sensitive ? "sensitive" : "")
        let handle = try FileHandle(forReadingFrom: file)
        let size = Int(try handle.seekToEnd())
        try handle.seek(toOffset: 0)
        let day = stores.today.date().iso
        return Response(
            status: .ok,
            headers: [
                .contentType: "application/zip", .contentLength: String(size), .cacheControl: "no-store",
                .contentDisposition: "attachment; filename=\"saessak-backup-\(day).zip\"",
            ],
            body: ResponseBody(contentLength: size) { writer in
                defer { try? handle.close() }
                while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                    try await writer.write(ByteBuffer(bytes: chunk))
                }
                try await writer.finish(nil)
            })
    }

    /// The member's mail choice as the form shows it.
    private func mailForm(_ member: Membership, language: Language) async throws -> MailForm {
        let choice = try await stores.database.stores.mail.choice(family: member.familyID, user: member.userID)
        return MailForm(
            digests: DigestFrequency.allCases.map { frequency in
                Option(
                    value: frequency.rawValue, name: MailWord(rawValue: "digest_\(frequency.rawValue)")?.text(language) ?? frequency.rawValue,
                    selected: frequency == choice.digest)
            },
            mailLanguages: [
                LanguageChoice(code: "ko", name: "한국어", selected: choice.language == "ko"),
                LanguageChoice(code: "en", name: "English", selected: choice.language == "en"),
            ],
            reminders: choice.reminders, address: choice.address)
    }

    /// What `settings.mustache` shows: the account, and for a member the family, its links, feeds, tokens and mail.
    struct Model: PageModel {
        let username: String
        let otherFamilies: [Named]
        let languages: [LanguageChoice]
        let notice: String?
        let myShareLinks: String?
        let secret: Secret?
        var family: Named?
        var members: [MemberRow]?
        var snapshots: SnapshotCard?
        var invitations: [InvitationRow]?
        var shareLinks: [ShareLinkRow]?
        var feeds: [Labelled]?
        var tokens: [Named]?
        var roles: [Option]?
        var mail: MailForm?
        var mailSaved = false
        var serverSendsMail = false
        var weather: WeatherForm?
        /// The family's sign-in rule (owners see its switch).
        var strongSignIn: Bool?
        /// What the family's files take, and the server's disk (owners).
        var storage: StorageCard?
        /// Which Saessak this is (`0.3.0 (commit 1a2b3c4d5e6f)`), for a question to whoever runs it.
        let version = Installation.description
    }

    /// How the scheduled snapshots are doing, for owners.
    struct SnapshotCard {
        let text: String
        let troubled: Bool
        let target: String
    }

    /// A member as the settings page lists them; an owner sees a form to change their role and a way to take them out.
    struct MemberRow {
        let name: String
        let role: String
        let path: String
        let choices: [RoleChoice]
    }

    struct RoleChoice {
        let value: String
        let name: String
        let selected: Bool
    }

    /// A family, a member or a token: who or what, and the role.
    struct Named {
        let id: String
        let name: String
        let role: String
    }

    struct LanguageChoice {
        let code: String
        let name: String
        let selected: Bool
    }

    /// A secret shown once (a new token, a feed's address).
    struct Secret {
        let label: String
        let value: String
    }

    /// The family's files and the server's disk, for owners (issue 66).
    static func storage(_ stores: WebStores, family: FamilyID, language: Language) async throws -> StorageCard {
        let use = try await stores.database.stores.photos.storageUse(family: family, now: stores.today.clock.now())
        let size = { (bytes: Int64) in ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file) }
        let disk = DiskSpace.at(stores.dataFolder)
        return StorageCard(
            use: ActivityWord.storageUse.text(language, size(use.photoBytes), size(use.clipBytes), size(use.bookBytes), size(use.addedLastMonth)),
            disk: disk.map { ActivityWord.diskSpace.text(language, size($0.available), "\($0.percentUsed)") },
            almostFull: (disk?.percentUsed ?? 0) >= DiskWatch.warnAt)
    }

    struct StorageCard {
        let use: String
        let disk: String?
        let almostFull: Bool
    }

    struct InvitationRow {
        let id: String
        let role: String
        let until: String
        /// Who made it: an owner sees which links to revoke.
        let by: String
    }

    struct ShareLinkRow {
        let id: String
        let label: String
        let count: Int
        let until: String
    }

    struct Labelled {
        let id: String
        let label: String
    }

    struct MailForm {
        let digests: [Option]
        let mailLanguages: [LanguageChoice]
        let reminders: Bool
        let address: String?
    }

    struct WeatherForm {
        let hint: String
        let saved: Bool
        let on: Bool
    }

    static func day(_ instant: Date, _ language: Language) -> String {
        language.longDate(Today.local(instant).date)
    }
}
