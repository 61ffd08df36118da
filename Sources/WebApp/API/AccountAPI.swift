import Diary
import Foundation
import Hummingbird
import Persistence

/// `/api/v1/account`: the signed-in user, their families, the family a browser session acts for, the password.
struct AccountAPI {
    let signIn: SignIn

    struct AccountResource: Encodable {
        struct FamilyResource: Encodable {
            let id: FamilyID
            let name: String
            let role: Role
        }

        let username: String
        let families: [FamilyResource]
        /// The family this request acts for (nil for a user in none).
        let familyId: FamilyID?
        let role: Role?
    }

    struct PasswordChange: Decodable {
        let currentPassword: String
        let newPassword: String
    }

    struct FamilyChoice: Decodable {
        let familyId: FamilyID
    }

    func register(on api: SecureRoutes) {
        api.get("account", .signedIn, statements: 9) { [signIn] _, context in
            let account = try await signIn.accounts.account(try context.user())
            return try JSONBody.response(AccountResource(
                username: account.username,
                families: account.families.map { .init(id: $0.family.id, name: $0.family.name, role: $0.role) },
                familyId: context.membership?.familyID, role: context.membership?.role))
        }
        // A token (perhaps a read-only one on a photo frame) never changes the password: a signed-in person does.
        api.put("account/password", .strongSession) { [signIn] request, context in
            let change = try await request.decode(as: PasswordChange.self, context: context)
            try await signIn.changePassword(
                user: try context.user(), current: change.currentPassword, new: change.newPassword, keeping: context.session,
                address: context.remoteAddress)
            return Response(status: .noContent)
        }
        api.put("account/family", .signedIn) { [signIn] request, context in
            let choice = try await request.decode(as: FamilyChoice.self, context: context)
            guard let session = context.session else {
                throw Problem(status: .conflict, detail: "an API token acts for the family it was made for: make one for the other family")
            }
            try await signIn.sessions.switchFamily(session, to: choice.familyId)
            return Response(status: .noContent)
        }
    }
}
