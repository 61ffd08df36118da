import Crypto
import Files
import Foundation

/// Encrypts sensitive fields (the resident registration number) at rest with AES-256-GCM.
///
/// The key comes from `SAESSAK_SECRET_KEY` (base64 of 32 bytes) when set, otherwise from `secret.key` in the data
/// folder, created on first use with mode 0600. Losing the key loses the encrypted fields, nothing else.
public struct FieldCipher: Sendable {
    private let key: SymmetricKey

    public static let environmentVariable = "SAESSAK_SECRET_KEY"
    public static let keyFileName = "secret.key"
    /// A rotation writes the new key here before re-encrypting, and renames it over `secret.key` after; its
    /// presence means a rotation was interrupted (`saessak admin rotate-key` finishes it).
    public static let nextKeyFileName = "secret.key.next"

    /// A new random key.
    public static func random() -> FieldCipher { FieldCipher(key: SymmetricKey(size: .bits256)) }

    /// The key's bytes, for writing the key file or printing it once (base64) for the environment variable.
    public var keyData: Data { key.withUnsafeBytes { Data($0) } }

    /// Whether this key opens `sealed` (which key a half-done rotation left a value under).
    public func opens(_ sealed: Data) -> Bool { (try? open(sealed)) != nil }

    /// The key in a file of 32 bytes.
    public static func fromFile(_ file: URL) throws -> FieldCipher {
        let bytes = try Data(contentsOf: file)
        guard bytes.count == 32 else { throw SecretsError.badKey("\(file.path) must hold exactly 32 bytes") }
        return FieldCipher(key: SymmetricKey(data: bytes))
    }

    public init(key: SymmetricKey) { self.key = key }

    /// Loads the key for a data folder, creating the key file if there is none.
    public static func forDataFolder(_ folder: URL, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws -> FieldCipher
    {
        if let encoded = environment[environmentVariable] {
            guard let bytes = Data(base64Encoded: encoded), bytes.count == 32 else {
                throw SecretsError.badKey("\(environmentVariable) must be the base64 of 32 bytes")
            }
            return FieldCipher(key: SymmetricKey(data: bytes))
        }
        let file = folder.appendingPathComponent(keyFileName)
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent(nextKeyFileName).path) {
            throw SecretsError.badKey("a key rotation was interrupted: run 'saessak admin rotate-key' to finish it")
        }
        if let bytes = try? Data(contentsOf: file) {
            guard bytes.count == 32 else { throw SecretsError.badKey("\(file.path) must hold exactly 32 bytes") }
            return FieldCipher(key: SymmetricKey(data: bytes))
        }
        let key = SymmetricKey(size: .bits256)
        try key.withUnsafeBytes { try AtomicFile.write(Data($0), to: file, permissions: 0o600) }
        return FieldCipher(key: key)
    }

    /// nonce ‖ ciphertext ‖ tag.
    public func seal(_ plaintext: String) throws -> Data {
        guard let combined = try AES.GCM.seal(Data(plaintext.utf8), using: key).combined else {
            throw SecretsError.badKey("AES-GCM gave no combined form")
        }
        return combined
    }

    public func open(_ sealed: Data) throws -> String {
        let box = try AES.GCM.SealedBox(combined: sealed)
        let plaintext = try AES.GCM.open(box, using: key)
        guard let text = String(data: plaintext, encoding: .utf8) else { throw SecretsError.badKey("not UTF-8 text") }
        return text
    }

    /// A signature of `message` for one `purpose` (HMAC-SHA256 under a key derived from this one by HKDF, so a
    /// signature for one purpose is worth nothing for another): links that act without a sign-in, such as the
    /// unsubscribe link in every mail. Every server of one database has the same key, so each accepts the others'.
    public func signature(of message: String, purpose: String) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: derivedKey(purpose)))
    }

    /// Whether `signature` is this key's for `message` and `purpose` (compared in constant time).
    public func verifies(_ signature: Data, of message: String, purpose: String) -> Bool {
        HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: Data(message.utf8), using: derivedKey(purpose))
    }

    private func derivedKey(_ purpose: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: key, info: Data("saessak signature: \(purpose)".utf8), outputByteCount: 32)
    }
}

public enum SecretsError: Error, CustomStringConvertible {
    case badKey(String)

    public var description: String {
        switch self {
        case .badKey(let why): "secret key: \(why)"
        }
    }
}
