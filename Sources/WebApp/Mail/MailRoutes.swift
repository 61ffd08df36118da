import Diary
import Foundation
import Hummingbird
import MailFormat
import Secrets
import Services

/// A member's mail choice as the API and the settings form give it, checked: a plain address (`MailAddress`), a
/// known digest and language.
struct MailChoiceInput: Decodable {
    let address: String?
    let digest: DigestFrequency
    let reminders: Bool
    let language: String

    func checked() throws -> MailChoice {
        var address: String?
        if let text = self.address, !text.trimmingCharacters(in: .whitespaces).isEmpty {
            do {
                address = try MailAddress(text).value
            } catch {
                throw ValidationError(field: "address", "\(error)")
            }
        }
        guard MailChoice.languages.contains(language) else { throw ValidationError(field: "language", "must be ko or en") }
        let choice = MailChoice(address: address, digest: digest, reminders: reminders, language: language)
        if address == nil, digest != .off || reminders {
            throw ValidationError(field: "address", "is needed to receive mail")
        }
        return choice
    }
}

struct MailChoiceResource: Encodable {
    let address: String?
    let digest: DigestFrequency
    let reminders: Bool
    let language: String
    /// Whether this server sends mail at all (its SMTP settings are made).
    let serverSendsMail: Bool

    init(_ choice: MailChoice, serverSendsMail: Bool) {
        address = choice.address
        digest = choice.digest
        reminders = choice.reminders
        language = choice.language
        self.serverSendsMail = serverSendsMail
    }
}

/// Mail settings: `GET|PUT /api/v1/account/mail` and the settings page's form (each member, viewers too, for the
/// family they act for), and the unsubscribe link of every mail (`/mail/unsubscribe/<family>/<user>/<signature>`,
/// a page with a button, and RFC 8058's one-click POST that mail programs send).
struct MailRoutes {
    let mail: any MailStore
    let accounts: any AccountStore
    let cipher: FieldCipher
    let serverSendsMail: Bool

    func register(api: SecureRoutes, pages: SecureRoutes) {
        api.get("account/mail", .member, statements: 8) { [mail, serverSendsMail] _, context in
            let member = try context.member()
            let choice = try await mail.choice(family: member.familyID, user: member.userID)
            return try JSONBody.response(MailChoiceResource(choice, serverSendsMail: serverSendsMail))
        }
        api.put("account/mail", .member) { [mail, serverSendsMail] request, context in
            let member = try context.member()
            let choice = try await request.decode(as: MailChoiceInput.self, context: context).checked()
            try await mail.setChoice(choice, family: member.familyID, user: member.userID)
            return try JSONBody.response(MailChoiceResource(choice, serverSendsMail: serverSendsMail))
        }
        pages.post("settings/mail", .member) { [mail] _, context in
            let member = try context.member()
            let form = context.form
            let input = MailChoiceInput(
                address: form["address"], digest: DigestFrequency(rawValue: form["digest"] ?? "") ?? .off,
                reminders: form["reminders"] == "true", language: form["mailLanguage"] ?? "ko")
            try await mail.setChoice(try input.checked(), family: member.familyID, user: member.userID)
            return AccountPages.redirect("/settings?done=mail#s-mail")
        }
        pages.get("mail/unsubscribe/:family/:user/:token", .link) { request, context in
            let (family, user) = try await member(context)
            let language = Language(request)
            let familyName = try await accounts.account(user).families.first { $0.family.id == family }?.family.name ?? ""
            let model = UnsubscribeModel(question: MailWord.unsubscribeQuestion.text(language, familyName), action: request.uri.path, done: false)
            return WebPage("unsubscribe", title: MailWord.unsubscribeTitle.text(language), tab: nil, model: model)
                .response(request, context: context)
        }
        // The signature in the path is the whole credential and no cookie is read: a mail program's one-click POST
        // (RFC 8058) carries no CSRF token, and needs none.
        pages.postWithoutCSRF("mail/unsubscribe/:family/:user/:token", .link) { [mail] request, context in
            let (family, user) = try await member(context)
            var choice = try await mail.choice(family: family, user: user)
            choice.digest = .off
            choice.reminders = false
            try await mail.setChoice(choice, family: family, user: user)
            let language = Language(request)
            let model = UnsubscribeModel(question: MailWord.unsubscribed.text(language), action: nil, done: true)
            return WebPage("unsubscribe", title: MailWord.unsubscribeTitle.text(language), tab: nil, model: model)
                .response(request, context: context)
        }
    }

    /// The member a link names, when its signature is theirs; 404 otherwise (an unknown link, or one altered).
    private func member(_ context: AppRequestContext) async throws -> (FamilyID, UserID) {
        let notFound = Problem(status: .notFound, detail: "this unsubscribe link is not known")
        guard let family = context.parameters.get("family").flatMap(FamilyID.init),
            let user = context.parameters.get("user").flatMap(UserID.init),
            let token = context.parameters.get("token"),
            UnsubscribeLink.verifies(token, family: family, user: user, cipher: cipher)
        else { throw notFound }
        do {
            _ = try await mail.choice(family: family, user: user)
        } catch StoreError.notFound {
            throw notFound  // they left the family since
        }
        return (family, user)
    }
}

/// What `unsubscribe.mustache` shows: the question with its form, or that it is done.
struct UnsubscribeModel: PageModel {
    let question: String
    let action: String?
    let done: Bool
}
