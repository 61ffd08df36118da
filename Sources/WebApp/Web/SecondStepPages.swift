import Diary
import Foundation
import Hummingbird
import Services

/// Turning the second step on and off (docs/security.md, "The second step"): the QR code and key for the
/// authenticator app, a first code to prove the app has it, then the ten recovery codes, shown once. Plain forms.
struct SecondStepPages {
    let stores: WebStores

    var secondStep: SecondStep { stores.signIn.secondStep }

    struct SetupModel: PageModel {
        let qrCode: String?
        let secret: String?
        let error: String?
        let codes: [String]
    }

    func register(on pages: SecureRoutes) {
        pages.post("settings/second-step/begin", .enrolment) { _, context in
            try await secondStep.store.begin(user: try context.user(), secret: SecondStep.newSecret())
            return AccountPages.redirect("/settings/second-step")
        }
        pages.get("settings/second-step", .enrolment) { request, context in
            guard let (secret, confirmed, _) = try await secondStep.store.secret(of: try context.user()), !confirmed else {
                return AccountPages.redirect("/settings/sign-in")
            }
            return try await setupPage(request, context, secret: secret, error: nil)
        }
        pages.post("settings/second-step/confirm", .enrolment) { request, context in
            let user = try context.user()
            guard let (secret, confirmed, _) = try await secondStep.store.secret(of: user), !confirmed else {
                return AccountPages.redirect("/settings/sign-in")
            }
            guard let step = SecondStep.matchingStep(context.form["code"] ?? "", secret: secret, now: stores.database.clock.now()) else {
                return try await setupPage(request, context, secret: secret, error: SignInWord.wrongCode.text(Language(request)))
            }
            let codes = SecondStep.recoveryCodes()
            guard try await secondStep.store.confirm(user: user, step: step, recoveryDigests: codes.map(SecondStep.digest(ofRecoveryCode:))) else {
                return AccountPages.redirect("/settings/sign-in")
            }
            return codesPage(request, context, codes: codes)
        }
        pages.post("settings/second-step/recovery-codes", .strongSession) { request, context in
            let codes = SecondStep.recoveryCodes()
            try await secondStep.store.replaceRecoveryCodes(user: try context.user(), digests: codes.map(SecondStep.digest(ofRecoveryCode:)))
            return codesPage(request, context, codes: codes)
        }
        pages.post("settings/second-step/off", .strongSession) { request, context in
            let user = try context.user()
            do {
                try await stores.signIn.confirmPassword(user: user, password: context.form["currentPassword"] ?? "", address: context.remoteAddress)
            } catch let error as ValidationError {
                throw Problem(status: .unprocessableContent, detail: error.text(Language(request)), field: error.field)
            }
            try await secondStep.store.remove(user: user)
            return PageNotice(text: SignInWord.secondStepTurnedOff.text(Language(request))).attached(
                to: AccountPages.redirect("/settings/sign-in"), request: request)
        }
    }

    private func setupPage(_ request: Request, _ context: AppRequestContext, secret: String, error: String?) async throws -> Response {
        let username = try await stores.signIn.accounts.account(try context.user()).username
        let address = SecondStep.authenticatorURL(secret: secret, username: username)
        // The key an app takes when typed: the RFC 6238 base32 of the HMAC key's bytes, the very text the QR code
        // carries (issue 66: the 32 characters shown were the key's bytes, not their base32, and no app took them).
        let typed = SecondStep.typedKey(secret: secret)
        // In groups of four, as apps show it.
        let grouped = stride(from: 0, to: typed.count, by: 4).map { start in
            String(typed.dropFirst(start).prefix(4))
        }.joined(separator: " ")
        var response = WebPage(
            "second-step", title: SignInWord.secondStep.text(Language(request)), tab: .more,
            model: SetupModel(qrCode: QRCode.dataURL(address), secret: grouped, error: error, codes: [])
        ).response(request, context: context)
        if error != nil { response.status = .unprocessableContent }
        return response
    }

    private func codesPage(_ request: Request, _ context: AppRequestContext, codes: [String]) -> Response {
        WebPage(
            "second-step", title: SignInWord.recoveryCodes.text(Language(request)), tab: .more,
            model: SetupModel(qrCode: nil, secret: nil, error: nil, codes: codes)
        ).response(request, context: context)
    }
}
