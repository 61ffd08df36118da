import Diary
import Foundation
import MailFormat
import Photos
import Secrets

/// Tells the owners by mail when a scheduled snapshot fails, and when the server's disk is nine tenths full (docs/backup.md, "Snapshots"): every owner who gave an
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
        try await composer.queueToOwners(key: "snapshot-failed:\(lastGood?.id ?? "none")", now: now) { body, language in
            body.paragraph(MailWord.snapshotFailedLead.text(language, reason))
            if let lastGood {
                let local = Today.local(lastGood.at)
                body.paragraph(MailWord.snapshotFailedLastGood.text(language, "\(language.longDate(local.date)) \(language.time(local.time))"))
            } else {
                body.paragraph(MailWord.snapshotFailedNever.text(language))
            }
            body.link(MailWord.snapshotFailedOpen.text(language), "/settings#s-snapshots")
            return MailWord.snapshotFailedSubject.text(language)
        }
    }

    /// Queues the mail that the server's disk is `percent` full (`free` left), once a day while it stays so (issue 66):
    /// once full, nothing more can be saved. Returns how many were queued.
    @discardableResult
    public func diskAlmostFull(percent: Int, free: String, now: Date) async throws -> Int {
        try await composer.queueToOwners(key: "disk-almost-full:\(Today.local(now).date.iso)", now: now) { body, language in
            body.paragraph(MailWord.diskAlmostFullLead.text(language, "\(percent)", free))
            body.link(MailWord.diskAlmostFullOpen.text(language), "/settings#s-storage")
            return MailWord.diskAlmostFullSubject.text(language)
        }
    }
}

extension MailComposer {
    /// Queues one mail to every owner who gave an address, in their language, unless they had one with `key` before;
    /// `write` fills the body and returns the subject. Returns how many were queued.
    func queueToOwners(key: String, now: Date, _ write: (inout MailBody, Language) -> String) async throws -> Int {
        var queued = 0
        for owner in try await stores.mail.owners() {
            guard let text = owner.choice.address, let address = try? MailAddress(text),
                try await !stores.mail.hasMail(family: owner.family, user: owner.user, key: key)
            else { continue }
            let language = Language(rawValue: owner.choice.language) ?? .korean
            var body = MailBody(configuration: configuration)
            let subject = write(&body, language)
            let message = self.message(to: owner, address: address, subject: subject, body: body, footer: nil, language: language, now: now)
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
