import Diary
import Foundation
import MailFormat
import Photos
import Secrets

/// Tells the owners by mail when a scheduled snapshot fails (docs/backup.md, "Snapshots"): every owner who gave an
/// address, in their language, once for each run of failures (the key names the last good snapshot, so an hourly
/// retry against a full disk does not fill their inbox; the next failure after a success tells again). The mail goes
/// through the outbox like every other, sent by the server's mail loop.
public struct SnapshotMail: Sendable {
    let stores: DiaryStores
    let composer: MailComposer

    public init(stores: DiaryStores, photos: PhotoService, cipher: FieldCipher, configuration: MailConfiguration) {
        self.stores = stores
        composer = MailComposer(stores: stores, photos: photos, cipher: cipher, configuration: configuration)
    }

    /// Queues the mail about a failed run (`reason` in English, as recorded; `kind` names it in the owner's language);
    /// returns how many were queued.
    @discardableResult
    public func failed(reason: String, lastGood: (id: String, at: Date)?, now: Date) async throws -> Int {
        let key = "snapshot-failed:\(lastGood?.id ?? "none")"
        var queued = 0
        for owner in try await stores.mail.owners() {
            guard let text = owner.choice.address, let address = try? MailAddress(text),
                try await !stores.mail.hasMail(family: owner.family, user: owner.user, key: key)
            else { continue }
            let language = Language(rawValue: owner.choice.language) ?? .korean
            var body = MailBody(configuration: composer.configuration)
            body.paragraph(MailWord.snapshotFailedLead.text(language, reason))
            if let lastGood {
                let local = Today.local(lastGood.at)
                body.paragraph(MailWord.snapshotFailedLastGood.text(language, "\(language.longDate(local.date)) \(language.time(local.time))"))
            } else {
                body.paragraph(MailWord.snapshotFailedNever.text(language))
            }
            body.link(MailWord.snapshotFailedOpen.text(language), "/settings#s-snapshots")
            let message = composer.message(
                to: owner, address: address, subject: MailWord.snapshotFailedSubject.text(language), body: body, footer: nil, language: language,
                now: now)
            if try await stores.mail.enqueue(
                family: owner.family, user: owner.user, key: key, recipient: address.value, messageID: message.messageID,
                message: message.rendered(), state: .queued, digestUntil: nil)
            {
                queued += 1
            }
        }
        return queued
    }
}
