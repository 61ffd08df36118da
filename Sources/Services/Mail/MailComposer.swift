import Crypto
import Diary
import Foundation
import KoreanCalendar
import MailFormat
import Photos
import Secrets

/// Writes the mail one member receives from one family: the digest (new entries with small photos linked back to the
/// app, new comments on their own entries, the days coming up) and reminders before each milestone. In the
/// member's language. A mail never carries the resident number (never read here) or where a photo was taken (the
/// pictures are the thumbnails, whose metadata libvips strips; no place is written).
struct MailComposer: Sendable {
    let stores: DiaryStores
    let photos: PhotoService
    let cipher: FieldCipher
    let configuration: MailConfiguration

    static let maximumEntries = 10
    static let maximumPictures = 6

    /// A digest's key when one is due for the member at `now`: daily from the digest hour (Seoul), weekly on Mondays.
    func digestKey(for recipient: MailRecipient, at now: Date) -> String? {
        let local = Today.local(now)
        guard local.time.hour >= configuration.digestHour else { return nil }
        switch recipient.choice.digest {
        case .off: return nil
        case .daily: return "digest:\(local.date.iso)"
        case .weekly: return local.date.weekday == 1 ? "digest:\(local.date.iso)" : nil
        }
    }

    /// The digest covering `recipient.digestSince` to `now`, or nil when there is nothing to tell: a daily digest
    /// needs new entries or comments (the days coming up ride along; reminders tell of them on their own), a weekly
    /// one goes with the days coming up alone.
    func digest(for recipient: MailRecipient, address: MailAddress, now: Date) async throws -> MailMessage? {
        let language = Language(rawValue: recipient.choice.language) ?? .korean
        let family = recipient.family
        let entryIDs = try await stores.mail.newEntries(family: family, user: recipient.user, since: recipient.digestSince, until: now)
        let comments = try await stores.mail.commentsOnOwnEntries(family: family, user: recipient.user, since: recipient.digestSince, until: now)
        let today = Today.local(now).date
        let children = try await stores.children.all(family: family)
        let names = Dictionary(children.map { ($0.id, $0.profile.name) }, uniquingKeysWith: { first, _ in first })
        let notices = try await FamilyNotices.notices(
            family: family, on: today, days: recipient.choice.digest == .weekly ? 14 : 7, children: children,
            anniversaries: try await stores.anniversaries.all(family: family),
            vaccinations: stores.vaccinations
        ).filter { $0.kind != .holiday }
        let hasNews = !entryIDs.isEmpty || !comments.isEmpty
        guard hasNews || (recipient.choice.digest == .weekly && !notices.isEmpty) else { return nil }

        var body = MailBody(configuration: configuration)
        body.paragraph(MailWord.digestGreeting.text(language, recipient.username))
        if !entryIDs.isEmpty {
            body.heading(MailWord.digestNewEntries.text(language))
            let ages = ChildAges(children)
            for id in entryIDs.prefix(Self.maximumEntries) {
                guard let entry = try? await stores.entries.get(family: family, id: id) else { continue }
                let content = entry.content
                let title = content.title.isEmpty ? String(content.body.prefix(40)) : content.title
                var meta = [language.longDate(content.date.date)]
                if let line = ages.line(content.childIDs, on: content.date.date, language: language) { meta.append(line) }
                let link = "/entries/\(entry.id)"
                body.entry(title: title, meta: meta.joined(separator: " · "), excerpt: Self.excerpt(content.body, title: content.title), link: link)
                var pictures: [MailMessage.InlineImage] = []
                for photoID in entry.photoIDs where body.pictureCount + pictures.count < Self.maximumPictures {
                    if let picture = await thumbnail(family: family, photoID) { pictures.append(picture) }
                }
                body.pictures(pictures, link: link, label: MailWord.digestOpenEntry.text(language))
            }
            if entryIDs.count > Self.maximumEntries {
                body.paragraph(MailWord.digestMoreEntries.text(language, String(entryIDs.count - Self.maximumEntries)))
            }
        }
        if !comments.isEmpty {
            body.heading(MailWord.digestComments.text(language))
            for (comment, entryID) in comments.prefix(20) {
                let entryTitle = (try? await stores.entries.get(family: family, id: entryID)).map {
                    $0.content.title.isEmpty ? language.longDate($0.content.date.date) : $0.content.title
                } ?? ""
                body.comment(
                    author: comment.authorName ?? "", text: String(comment.text.prefix(300)),
                    on: MailWord.digestCommentOn.text(language, entryTitle), link: "/entries/\(entryID)")
            }
        }
        if !notices.isEmpty {
            body.heading(MailWord.digestComingUp.text(language))
            body.list(notices.prefix(12).map { notice in
                let line = NoticeLine(notice, today: today, language: language, names: names)
                return "\(line.title) — \(line.when)"
            })
        }
        let subject = (recipient.choice.digest == .weekly ? MailWord.digestSubjectWeekly : .digestSubjectDaily).text(language, recipient.familyName)
        let footer = (recipient.choice.digest == .weekly ? MailWord.digestFooterWeekly : .digestFooterDaily).text(language)
        return message(to: recipient, address: address, subject: subject, body: body, footer: footer, language: language, now: now)
    }

    /// The reminders due for the member at `now`, each with its key: one per day it tells of, sent once.
    func reminders(for recipient: MailRecipient, address: MailAddress, now: Date) async throws -> [(key: String, message: MailMessage)] {
        guard recipient.choice.reminders else { return [] }
        let language = Language(rawValue: recipient.choice.language) ?? .korean
        let today = Today.local(now).date
        let children = try await stores.children.all(family: recipient.family)
        let notices = try await FamilyNotices.notices(
            family: recipient.family, on: today, days: configuration.reminderDays, children: children,
            anniversaries: try await stores.anniversaries.all(family: recipient.family),
            vaccinations: stores.vaccinations
        ).filter { $0.kind != .holiday && $0.date > today }
        guard !notices.isEmpty else { return [] }
        let names = Dictionary(children.map { ($0.id, $0.profile.name) }, uniquingKeysWith: { first, _ in first })
        return notices.map { notice in
            let line = NoticeLine(notice, today: today, language: language, names: names)
            var body = MailBody(configuration: configuration)
            body.paragraph(MailWord.reminderLead.text(language))
            body.heading("\(line.title)")
            body.paragraph(line.when)
            body.link(MailWord.reminderOpen.text(language), "/calendar/\(notice.date.iso)")
            let subject = MailWord.reminderSubject.text(language, recipient.familyName, "\(line.title) · \(line.when)")
            let what = [notice.kind.rawValue, notice.childID?.description ?? "-", notice.title].joined(separator: "|")
            let digest = SHA256.hash(data: Data(what.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
            return (
                "reminder:\(notice.date.iso):\(digest)",
                message(to: recipient, address: address, subject: subject, body: body, footer: nil, language: language, now: now)
            )
        }
    }

    func message(
        to recipient: MailRecipient, address: MailAddress, subject: String, body: MailBody, footer: String?, language: Language, now: Date
    ) -> MailMessage {
        var body = body
        let unsubscribe = configuration.publicURL + UnsubscribeLink.path(family: recipient.family, user: recipient.user, cipher: cipher)
        body.footer(
            [footer, MailWord.footerWhy.text(language, recipient.familyName)].compactMap { $0 },
            links: [(MailWord.footerSettings.text(language), "/settings#s-mail"), (MailWord.footerUnsubscribe.text(language), unsubscribe)])
        return MailMessage(
            from: .init(name: configuration.senderName, address: configuration.from),
            to: .init(name: recipient.username, address: address), subject: subject, date: now,
            messageID: "\(UUID().uuidString.lowercased())@\(configuration.from.domain)", text: body.text,
            html: body.html(language: language, title: subject), images: body.images,
            extraHeaders: [
                ("List-Unsubscribe", "<\(unsubscribe)>"), ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"),
                ("Auto-Submitted", "auto-generated"),
            ])
    }

    /// A photo's small thumbnail (JPEG, metadata stripped) as an inline picture, or nil when it cannot be had now.
    private func thumbnail(family: FamilyID, _ id: PhotoID) async -> MailMessage.InlineImage? {
        guard let photo = try? await stores.photos.get(family: family, id: id),
            let file = try? await photos.thumbnail(photo, size: .small), file.byteCount > 0, file.byteCount <= 1 << 20
        else { return nil }
        var bytes = Data()
        do {
            try await file.read(0...(file.byteCount - 1), chunkSize: 1 << 16) { bytes.append($0) }
        } catch {
            return nil
        }
        return MailMessage.InlineImage(contentID: "\(photo.id)@saessak", mediaType: "image/jpeg", filename: "\(photo.id).jpg", bytes: bytes)
    }

    /// The body's first lines, when the entry has a title (else the title is the body's start already).
    private static func excerpt(_ body: String, title: String) -> String? {
        guard !title.isEmpty, !body.isEmpty else { return nil }
        return body.count > 200 ? String(body.prefix(200)) + "…" : body
    }
}
