import CQREncode
import Diary
import Foundation
import HummingbirdOTP
import Persistence
import Secrets

/// The second step of a password sign-in (docs/security.md, "The second step"): a six-digit code from an
/// authenticator app (TOTP, RFC 6238: HMAC-SHA1, 30-second steps; computed by hummingbird-auth's `TOTP`), or one of
/// ten one-time recovery codes. A code is good for the step before, the step and the step after now, and once: the
/// store keeps the last step used.
struct SecondStep: Sendable {
    let store: any SecondStepStore
    let cipher: FieldCipher
    let clock: Clock

    static let period: TimeInterval = 30
    static let recoveryCodeCount = 10
    /// Between the right password and the code: how long the page that asks for the code stays good.
    static let pendingLifetime: TimeInterval = 300
    static let pendingCookie = "saessak_second_step"
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".unicodeScalars)

    /// A new secret: 32 characters of RFC 4648's base32 alphabet (160 random bits). The HMAC key is their bytes (as
    /// hummingbird-auth's `TOTP` takes a secret), so an app is given those bytes in base32 (`typedKey`).
    static func newSecret() -> String {
        String(String.UnicodeScalarView(TokenGenerator.randomBytes(32).map { alphabet[Int($0 & 31)] }))
    }

    static func step(at date: Date) -> Int64 { Int64((date.timeIntervalSince1970 / period).rounded(.down)) }

    /// The code an app shows for `secret` in `step`, six digits.
    static func code(secret: String, step: Int64) -> String {
        let value = TOTP(secret: secret).compute(date: Date(timeIntervalSince1970: Double(step) * period))
        let digits = String(value)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// The step among now's neighbours whose code `given` is, or nil.
    static func matchingStep(_ given: String, secret: String, now: Date) -> Int64? {
        let typed = given.filter { !$0.isWhitespace }
        guard typed.count == 6, typed.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        let current = step(at: now)
        return [current - 1, current, current + 1].first { code(secret: secret, step: $0) == typed }
    }

    /// What an authenticator app scans: `otpauth://totp/새싹:mina?secret=…&issuer=새싹`.
    static func authenticatorURL(secret: String, username: String) -> String {
        TOTP(secret: secret).createAuthenticatorURL(label: "새싹:\(username)", issuer: "새싹")
    }

    /// What a member types into an authenticator app instead of scanning: the base32 secret of the scanned address.
    static func typedKey(secret: String) -> String {
        URLComponents(string: authenticatorURL(secret: secret, username: "x"))?.queryItems?.first { $0.name == "secret" }?.value ?? ""
    }

    /// Ten recovery codes, `xxxxx-xxxxx` in lowercase base32 (50 random bits each), shown once.
    static func recoveryCodes() -> [String] {
        (0..<recoveryCodeCount).map { _ in
            let letters = TokenGenerator.randomBytes(10).map { Character(alphabet[Int($0 & 31)]) }
            return (String(letters.prefix(5)) + "-" + String(letters.suffix(5))).lowercased()
        }
    }

    static func digest(ofRecoveryCode code: String) -> Data {
        TokenGenerator.digest(of: code.lowercased().filter { $0.isLetter || $0.isNumber })
    }

    /// Checks a code for a member whose second step is on: an app's code (once per step) or a recovery code (once).
    func check(_ given: String, user: UserID) async throws -> Bool {
        guard given.count <= 40, let (secret, confirmed, _) = try await store.secret(of: user), confirmed else { return false }
        if let step = Self.matchingStep(given, secret: secret, now: clock.now()) {
            return try await store.use(user: user, step: step)
        }
        return try await store.useRecoveryCode(user: user, digest: Self.digest(ofRecoveryCode: given))
    }

    // MARK: Between the password and the code

    /// The cookie that carries a right password to the code's page: the user, an end time and their signature
    /// (HMAC under a key derived from the field cipher's), so that it cannot be made without the password.
    func pendingValue(user: UserID) -> String {
        let message = "\(user).\(Int(clock.now().addingTimeInterval(Self.pendingLifetime).timeIntervalSince1970))"
        return message + "." + Base64URL.encode(Array(cipher.signature(of: message, purpose: Self.pendingCookie)))
    }

    /// The user a pending cookie names, while it is good.
    func pendingUser(_ value: String?) -> UserID? {
        guard let value, value.utf8.count < 200 else { return nil }
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let user = UserID(parts[0]), let end = Int(parts[1]), let signature = Base64URL.decode(String(parts[2])),
            cipher.verifies(Data(signature), of: "\(parts[0]).\(parts[1])", purpose: Self.pendingCookie),
            Double(end) > clock.now().timeIntervalSince1970
        else { return nil }
        return user
    }
}

/// QR codes as SVG, drawn from libqrencode's modules.
enum QRCode {
    /// `text` as a QR code (error correction M) in an SVG with a quiet zone of four modules; nil if it does not fit.
    static func svg(_ text: String) -> String? {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let modules = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        var path = ""
        for y in 0..<width {
            for x in 0..<width where modules[y * width + x] & 1 != 0 { path += "M\(x + 4) \(y + 4)h1v1h-1z" }
        }
        let size = width + 8
        return ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \##(size) \##(size)" shape-rendering="crispEdges">"##
            + ##"<rect width="\##(size)" height="\##(size)" fill="#fff"/><path d="\##(path)" fill="#000"/></svg>"##
    }

    /// The SVG as a `data:` address for an `<img>` (the pages' CSP allows `data:` images).
    static func dataURL(_ text: String) -> String? {
        svg(text).map { "data:image/svg+xml;base64," + Data($0.utf8).base64EncodedString() }
    }
}
