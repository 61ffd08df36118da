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

    /// Queues the mail that someone with the member's password is typing wrong codes of the second step (`count` in
    /// a day): the password is known to them, and should be changed. Once a day at most.
    @discardableResult
    public func codesGuessed(user: UserID, count: Int, at now: Date) async throws -> Bool {
        try await send(user: user, key: "codes-guessed:\(Today.local(now).date.iso)", at: now) { body, language, username in
            body.paragraph(MailWord.codesGuessedLead.text(language, username, "\(count)"))
            body.paragraph(MailWord.codesGuessedAdvice.text(language))
            body.link(MailWord.codesGuessedOpen.text(language), "/account/password")
            return MailWord.codesGuessedSubject.text(language)
        }
    }

    /// One mail to the member at the address of the first of their families that has one.
    private func send(
        user: UserID, key: String, at now: Date, _ write: (inout MailBody, Language, String) -> String
    ) async throws -> Bool {
        let (username, families) = try await stores.accounts.account(user)
        for (family, _) in families {
            let choice = try await stores.mail.choice(family: family.id, user: user)
            guard let text = choice.address, let address = try? MailAddress(text) else { continue }
            let language = Language(rawValue: choice.language) ?? .korean
            let recipient = MailRecipient(family: family.id, familyName: family.name, user: user, username: username, choice: choice, digestSince: now)
            var body = MailBody(configuration: composer.configuration)
            let subject = write(&body, language, username)
            let message = composer.message(to: recipient, address: address, subject: subject, body: body, footer: nil, language: language, now: now)
            return try await stores.mail.enqueue(
                family: family.id, user: user, key: key, recipient: address.value, messageID: message.messageID,
                message: message.rendered(), state: .queued, digestUntil: nil)
        }
        return false
    }

    /// Queues the mail about a new browser (`label`, "Firefox · Windows") that signed in as `session`; returns
    /// whether one was queued.
    @discardableResult
    public func newDevice(user: UserID, session: String, label: String, method: SignInMethod, at now: Date) async throws -> Bool {
        try await send(user: user, key: "new-sign-in:\(session)", at: now) { body, language, username in
            let local = Today.local(now)
            let how: MailWord = switch method {
            case .password: .newSignInWithPassword
            case .passkey: .newSignInWithPasskey
            case .secondStep: .newSignInWithSecondStep
            }
            body.paragraph(MailWord.newSignInLead.text(language, username))
            body.paragraph("\(label) · \(how.text(language)) · \(language.longDate(local.date)) \(language.time(local.time))")
            body.paragraph(MailWord.newSignInNotYou.text(language))
            body.link(MailWord.newSignInOpen.text(language), "/settings/sign-in")
            return MailWord.newSignInSubject.text(language)
        }
    }
}
