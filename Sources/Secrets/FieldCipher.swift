import Crypto
import Foundation

/// Encrypts sensitive fields (the resident registration number) at rest with AES-256-GCM.
///
/// The key comes from `SAESSAK_SECRET_KEY` (base64 of 32 bytes) when set, otherwise from `secret.key` in the data
/// folder, created on first use with mode 0600. Losing the key loses the encrypted fields, nothing else.
public struct FieldCipher: Sendable {
    private let key: SymmetricKey

    public static let environmentVariable = "SAESSAK_SECRET_KEY"
    public static let keyFileName = "secret.key"

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
}

public enum SecretsError: Error, CustomStringConvertible {
    case badKey(String)

    public var description: String {
        switch self {
        case .badKey(let why): "secret key: \(why)"
        }
    }
}
