import Diary
import Foundation
import Hummingbird
import Services

/// The family's rule that its owners and editors sign in with more than a password (a passkey, or a password and the
/// second step): `GET|PUT /api/v1/family/sign-in` (reading: any member; changing: an owner) and the settings page's
/// switch (`POST /settings/sign-in-rule`, owners). An owner whose own browser signed in with a password alone cannot
/// turn it on: the rule would shut them out of the family at once.
struct SignInRuleRoutes {
    let accounts: any AccountStore

    struct Choice: Codable {
        let strongSignIn: Bool
    }

    func register(api: SecureRoutes, pages: SecureRoutes) {
        api.get("family/sign-in", .viewer, statements: 8) { _, context in
            try JSONBody.response(Choice(strongSignIn: try await accounts.strongSignIn(family: try context.member().familyID)))
        }
        api.put("family/sign-in", .owner) { request, context in
            let choice = try await request.decode(as: Choice.self, context: context)
            try await set(choice.strongSignIn, context: context)
            return try JSONBody.response(choice)
        }
        pages.post("settings/sign-in-rule", .owner) { request, context in
            try await set(context.form["on"] == "true", context: context)
            return PageNotice(text: SignInWord.signInRuleSaved.text(Language(request))).attached(
                to: AccountPages.redirect("/settings#s-sign-in-rule"), request: request)
        }
    }

    private func set(_ on: Bool, context: AppRequestContext) async throws {
        if on, let session = context.session, !session.signedInWith.isStrong {
            throw Problem(
                status: .conflict,
                detail: "sign in with a passkey or the second step first: with a password alone this rule would shut you out of the family")
        }
        try await accounts.setStrongSignIn(on, family: try context.member().familyID)
    }
}
