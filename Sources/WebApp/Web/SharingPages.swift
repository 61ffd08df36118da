import Crypto
import Diary
import Foundation
import Hummingbird
import Persistence
import Photos
import Services
import Secrets

/// What link holders see: an invitation to join a family, and the entries a share link shows (with their photos,
/// and nothing else of the family: no other entry, no child's profile).
struct SharingPages {
    let sharing: any SharingStore
    let entries: any EntryStore
    let photos: PhotoService
    let signIn: SignIn

    func register(on pages: SecureRoutes) {
        pages.get("invite/:token", .link) { [sharing] request, context in
            let token = context.parameters.get("token") ?? ""
            guard let (invitation, familyName) = try await sharing.openInvitation(token: token) else {
                throw Self.gone(request)
            }
            return Self.invitationPage(request, context: context, token: token, role: invitation.role, familyName: familyName, error: nil)
        }
        pages.post("invite/:token", .link) { [sharing, signIn] request, context in
            let token = context.parameters.get("token") ?? ""
            guard let (invitation, familyName) = try await sharing.openInvitation(token: token) else { throw Self.gone(request) }
            var newUser: (username: String, passwordHash: String)?
            // Choosing a username tells whether it is taken: at most `LoginThrottle.limit` refusals a minute per
            // address and per invitation, so nobody can list the accounts through a link (issue 17).
            // The link's secret never reaches the database: the throttle counts under its hash.
            let address = context.remoteAddress ?? "unknown"
            let throttleKey = "invitation " + TokenGenerator.digest(of: token).base64EncodedString()
            if context.userID == nil, let wait = try await signIn.throttle.wait(account: throttleKey, address: address, now: signIn.clock.now()) {
                var response = Self.invitationPage(request, context: context, token: token, role: invitation.role,
                    familyName: familyName, error: Word.tryLater.text(Language(request)), status: .tooManyRequests)
                response.headers[.retryAfter] = String(wait)
                return response
            }
            if context.userID == nil {
                let password = context.form["password"] ?? ""
                if let problem = PasswordHasher.problem(with: password) {
                    return Self.invitationPage(request, context: context, token: token, role: invitation.role,
                        familyName: familyName, error: ValidationError(field: "password", .passwordLength(problem)).text(Language(request)))
                }
                newUser = (context.form["username"] ?? "", try await signIn.hash(password))
            }
            let accepted: (user: UserID, membership: Membership)
            do {
                accepted = try await sharing.accept(token: token, user: context.userID, newUser: newUser)
            } catch let error as ValidationError {
                return Self.invitationPage(request, context: context, token: token, role: invitation.role, familyName: familyName, error: error.text(Language(request)))
            } catch StoreError.conflict(field: "username", _) {
                try await signIn.throttle.recordFailure(account: throttleKey, address: address, now: signIn.clock.now())
                return Self.invitationPage(request, context: context, token: token, role: invitation.role, familyName: familyName,
                    error: Word.usernameUnavailable.text(Language(request)))
            } catch StoreError.conflict(_, let message) {
                return Self.invitationPage(request, context: context, token: token, role: invitation.role, familyName: familyName, error: message)
            }
            var response = AccountPages.redirect("/")
            if let session = context.session {
                try await signIn.sessions.switchFamily(session, to: accepted.membership.familyID)
            } else {
                let (cookie, session) = try await signIn.sessions.start(user: accepted.user)
                try await signIn.sessions.switchFamily(session, to: accepted.membership.familyID)
                response.headers[values: .setCookie].append(WebCredentials.sessionCookie(cookie, secure: WebCredentials.isSecure(request)))
            }
            return response
        }
        pages.get("s/:token", .link, statements: 20) { [sharing, entries, photos] request, context in
            guard let link = try await sharing.openShareLink(token: context.parameters.get("token") ?? "") else {
                throw Self.gone(request)
            }
            let language = Language(request)
            let token = context.parameters.get("token") ?? ""
            var shown: [SharedEntry] = []
            let linked = try await entries.entries(family: link.familyID, ids: link.entryIDs)
            let videos = try await photos.store.videos(family: link.familyID, among: linked.flatMap(\.photoIDs))
            for entry in linked {
                shown.append(
                    SharedEntry(
                        title: entry.content.title, iso: entry.content.date.iso, date: language.longDate(entry.content.date.date),
                        photos: entry.photoIDs.map { photo in
                            SharedPhoto(
                                image: "/s/\(token)/photos/\(photo)", video: videos[photo].map { _ in "/s/\(token)/videos/\(photo)" },
                                duration: videos[photo].map { Duration.clock(Double($0.durationMilliseconds) / 1000) })
                        },
                        body: entry.content.body))
            }
            return WebPage("shared", title: Word.sharedDiary.text(language), model: SharedModel(entries: shown, label: link.label), bare: true)
                .response(request, context: context)
        }
        pages.get("s/:token/photos/:photo", .link) { [sharing, entries, photos] request, context in
            let (link, photo) = try await Self.sharedPhoto(request, context: context, sharing: sharing, entries: entries, photos: photos)
            // The ETag names the photo and the link, never the content's SHA-256, which outsiders need not learn.
            return try await FileResponse.serve(
                try await photos.thumbnail(photo, size: .large), contentType: Thumbnailer.format.mimeType,
                etag: Self.tag(link, photo, "large"), caching: .shareLink, request: request)
        }
        pages.get("s/:token/videos/:photo", .link) { [sharing, entries, photos] request, context in
            let (link, photo) = try await Self.sharedPhoto(request, context: context, sharing: sharing, entries: entries, photos: photos)
            // Never the original (its tags); the tag changed with that, so no browser keeps an original it was sent.
            return try await PhotosAPI.video(
                photo, service: photos, etag: Self.tag(link, photo, "video-stripped"), caching: .shareLink, shared: true, request: request)
        }
    }

    /// The photo or clip a share link's address names: only one of an entry the link shows.
    private static func sharedPhoto(
        _ request: Request, context: AppRequestContext, sharing: any SharingStore, entries: any EntryStore, photos: PhotoService
    ) async throws -> (ShareLink, Photo) {
        guard let link = try await sharing.openShareLink(token: context.parameters.get("token") ?? "") else {
            throw Self.gone(request)
        }
        let photoID: PhotoID = try context.id("photo", of: "photo")
        var shared = false
        for id in link.entryIDs where !shared {
            shared = (try? await entries.get(family: link.familyID, id: id))?.photoIDs.contains(photoID) ?? false
        }
        guard shared else { throw Problem(status: .notFound, detail: "no photo with id \(photoID)") }
        return (link, try await photos.store.get(family: link.familyID, id: photoID))
    }

    private static func tag(_ link: ShareLink, _ photo: Photo, _ kind: String) -> String {
        SHA256.hash(data: Data("\(link.id) \(photo.id) \(kind)".utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    /// 404: an unknown, expired, used or revoked link looks the same from outside.
    static func gone(_ request: Request) -> Problem {
        Problem(status: .notFound, detail: Word.linkGone.text(Language(request)))
    }

    /// What `shared.mustache` shows: the link's entries, for whoever holds it.
    struct SharedModel: PageModel {
        let entries: [SharedEntry]
        let label: String?
    }

    struct SharedEntry {
        let title: String
        let iso: String
        let date: String
        let photos: [SharedPhoto]
        let body: String
    }

    struct SharedPhoto {
        let image: String
        let video: String?
        let duration: String?
    }

    private static func invitationPage(
        _ request: Request, context: AppRequestContext, token: String, role: Role, familyName: String, error: String?,
        status: HTTPResponse.Status? = nil
    ) -> Response {
        let words = Words.table(Language(request))
        let (csrf, cookie) = AccountPages.csrf(request, context: context)
        var fields: [FormField] = []
        var signInFirst: String?
        var passkeySignUp: AccountPages.FormModel.PasskeySignUp?
        if context.userID == nil {
            passkeySignUp = .init(
                action: "/invite/\(token)/passkey", heading: words[.joinWithPasskey], label: words[.joinWithPasskeyButton],
                hint: words[.joinWithPasskeyHint], orWithPassword: words[.orJoinWithPassword])
            let next = "/invite/\(token)".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "/"
            signInFirst = "/login?next=\(next)"
            fields = [
                FormField(name: "username", label: words[.username], value: context.form["username"] ?? "", autocomplete: "username"),
                FormField(name: "password", label: words[.password], type: "password", autocomplete: "new-password"),
            ]
        }
        return AccountPages.form(
            request, context: context, title: words[.joinFamily], action: "/invite/\(token)", csrf: csrf, submit: words[.join],
            fields: fields, error: error, invitation: .init(familyName: familyName, role: role.rawValue), signInFirst: signInFirst,
            passkeySignUp: passkeySignUp,
            status: status ?? (error == nil ? .ok : .unprocessableContent), cookie: cookie)
    }
}
