import Crypto
import Foundation

/// API tokens: 256 random bits shown once to the user; only their SHA-256 is stored, so a copy of the
/// database gives nobody a working token.
public enum TokenGenerator {
    /// Every token starts with this, so a leaked one is easy to recognise in a scan.
    public static let prefix = "ssk_"

    /// A new token and the digest to store for it.
    public static func make() -> (token: String, digest: Data) {
        let token = prefix + randomBytes(32).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return (token, digest(of: token))
    }

    public static func digest(of token: String) -> Data { digest(of: Data(token.utf8)) }

    public static func digest(of bytes: Data) -> Data { Data(SHA256.hash(data: bytes)) }

    /// `count` bytes from the system's random source (a WebAuthn challenge, a TOTP secret).
    public static func randomBytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
