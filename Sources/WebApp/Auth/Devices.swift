import Diary
import Hummingbird

/// The browsers a member signs in from. Each gets a long-lived cookie naming it (`saessak_device`, only its digest is
/// stored); a sign-in without one of the user's goes into the family's activity as a sign-in from a new device, with
/// what the browser said it was (`label`): a member who sees "Firefox · Windows" they never used knows to act.
enum Devices {
    static let cookie = "saessak_device"
    /// Two years: a phone used every day is never new again.
    static let lifetime = 2 * 365 * 86_400

    /// Notes the browser of a sign-in that just succeeded, and returns the `Set-Cookie` that keeps naming it.
    static func signedIn(_ session: Session, request: Request, sessions: any SessionStore) async throws -> String {
        let given = request.cookies[cookie].map(\.value).flatMap { $0.isEmpty ? nil : $0 }
        let label = Activity.deviceLabel(request.headers[.userAgent] ?? "")
        try await sessions.label(session: session.id, label)
        let (value, _) = try await sessions.recognise(device: given, user: session.userID, label: label)
        return WebCredentials.cookie(cookie, value, maxAge: lifetime, secure: WebCredentials.isSecure(request))
    }
}
