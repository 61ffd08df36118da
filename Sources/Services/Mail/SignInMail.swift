import Diary
import Foundation
import MailFormat
import Photos
import Secrets

/// Tells a member by mail when their account signs in from a browser it has not seen before (docs/security.md,
/// "Devices"): what the browser said it was, when, and how it signed in, with a link to sign it out. One mail, to the
/// address of the first of their families that has one; none for a member who gave no address. Through the outbox,
/// like every other mail.
public struct SignInMail: Sendable {
    let stores: DiaryStores
    let composer: MailComposer

    public init(stores: DiaryStores, photos: PhotoService, cipher: FieldCipher, configuration: MailConfiguration) {
        self.stores = stores
        composer = MailComposer(stores: stores, photos: photos, cipher: cipher, configuration: configuration)
    }

    /// Queues the mail about a new browser (`label`, "Firefox · Windows") that signed in as `session`; returns
    /// whether one was queued.
    @discardableResult
    public func newDevice(user: UserID, session: String, label: String, method: SignInMethod, at now: Date) async throws -> Bool {
        let (username, families) = try await stores.accounts.account(user)
        for (family, _) in families {
            let choice = try await stores.mail.choice(family: family.id, user: user)
            guard let text = choice.address, let address = try? MailAddress(text) else { continue }
            let language = Language(rawValue: choice.language) ?? .korean
            let recipient = MailRecipient(family: family.id, familyName: family.name, user: user, username: username, choice: choice, digestSince: now)
            let local = Today.local(now)
            let how: MailWord = switch method {
            case .password: .newSignInWithPassword
            case .passkey: .newSignInWithPasskey
            case .secondStep: .newSignInWithSecondStep
            }
            var body = MailBody(configuration: composer.configuration)
            body.paragraph(MailWord.newSignInLead.text(language, username))
            body.paragraph("\(label) · \(how.text(language)) · \(language.longDate(local.date)) \(language.time(local.time))")
            body.paragraph(MailWord.newSignInNotYou.text(language))
            body.link(MailWord.newSignInOpen.text(language), "/settings/sign-in")
            let message = composer.message(
                to: recipient, address: address, subject: MailWord.newSignInSubject.text(language), body: body, footer: nil,
                language: language, now: now)
            return try await stores.mail.enqueue(
                family: family.id, user: user, key: "new-sign-in:\(session)", recipient: address.value, messageID: message.messageID,
                message: message.rendered(), state: .queued, digestUntil: nil)
        }
        return false
    }
}
