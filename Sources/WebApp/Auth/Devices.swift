import Diary
import Hummingbird
import Services

/// The browsers a member signs in from. Each gets a long-lived cookie naming it (`saessak_device`, only its digest is
/// stored); a sign-in without one of the user's goes into the family's activity as a sign-in from a new device, with
/// what the browser said it was (`label`): a member who sees "Firefox · Windows" they never used knows to act.
enum Devices {
    static let cookie = "saessak_device"
    /// Two years: a phone used every day is never new again.
    static let lifetime = 2 * 365 * 86_400

    /// Notes the browser of a sign-in that just succeeded, and returns the `Set-Cookie` that keeps naming it.
    static func signedIn(_ session: Session, request: Request, signIn: SignIn) async throws -> String {
        let sessions = signIn.sessions
        let given = request.cookies[cookie].map(\.value).flatMap { $0.isEmpty ? nil : $0 }
        let label = Activity.deviceLabel(request.headers[.userAgent] ?? "")
        try await sessions.label(session: session.id, label)
        let (value, isNew) = try await sessions.recognise(device: given, user: session.userID, label: label)
        if isNew, let mail = signIn.mail {
            // The sign-in stands whatever the mail does: a full outbox is no reason to keep a member out.
            _ = try? await mail.newDevice(user: session.userID, session: session.id, label: label, method: session.signedInWith, at: signIn.clock.now())
        }
        return WebCredentials.cookie(cookie, value, maxAge: lifetime, secure: WebCredentials.isSecure(request))
    }
}
