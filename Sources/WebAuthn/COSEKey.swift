import Crypto
import CryptoExtras
import Foundation

/// A credential's public key as an authenticator gives it (a COSE_Key, RFC 9052 §7, in CBOR), in the two forms we
/// accept: ES256 (ECDSA on P-256 with SHA-256, what phones and security keys make) and RS256 (RSASSA-PKCS1-v1_5 with
/// SHA-256, what Windows Hello makes). Anything else is refused when the passkey is added.
public enum COSEKey: Sendable {
    case es256(P256.Signing.PublicKey)
    case rs256(_RSA.Signing.PublicKey)

    /// COSE algorithm numbers (IANA "COSE Algorithms").
    public enum Algorithm: Int, Sendable, CaseIterable {
        case es256 = -7
        case rs256 = -257
    }

    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case notAKey
        case unsupportedAlgorithm
        case badParameters(String)

        public var description: String {
            switch self {
            case .notAKey: "the public key is not a COSE key"
            case .unsupportedAlgorithm: "the passkey's algorithm is neither ES256 nor RS256"
            case .badParameters(let what): "the public key's \(what) is not usable"
            }
        }
    }

    // COSE key labels (RFC 9052 §7.1, RFC 9053 §7.1, RFC 8230 §4).
    private static let keyType = 1, algorithm = 3
    private static let curve = -1, x = -2, y = -3
    private static let modulus = -1, exponent = -2
    private static let ec2 = 2, rsa = 3, p256 = 1

    /// Reads a key from its CBOR bytes (as stored with the passkey).
    public init(bytes: some Collection<UInt8>) throws {
        try self.init(try CBOR(decoding: bytes))
    }

    public init(_ cbor: CBOR) throws(COSEKey.Error) {
        guard case .map = cbor, let type = cbor[label: Self.keyType]?.integer else { throw .notAKey }
        guard let number = cbor[label: Self.algorithm]?.integer, let algorithm = Algorithm(rawValue: number) else {
            throw .unsupportedAlgorithm
        }
        switch (algorithm, type) {
        case (.es256, Self.ec2):
            guard cbor[label: Self.curve]?.integer == Self.p256 else { throw .badParameters("curve") }
            guard let x = cbor[label: Self.x]?.byteString, let y = cbor[label: Self.y]?.byteString, x.count == 32, y.count == 32,
                let key = try? P256.Signing.PublicKey(x963Representation: [0x04] + x + y)
            else { throw .badParameters("point") }
            self = .es256(key)
        case (.rs256, Self.rsa):
            // 2048 bits at least (swift-crypto refuses less), 16384 at most: a key is not a way to make us work.
            guard let n = cbor[label: Self.modulus]?.byteString, let e = cbor[label: Self.exponent]?.byteString,
                (256...2048).contains(n.count), (1...8).contains(e.count),
                let key = try? _RSA.Signing.PublicKey(n: n, e: e)
            else { throw .badParameters("modulus or exponent") }
            self = .rs256(key)
        default:
            throw .badParameters("key type")
        }
    }

    public var algorithm: Algorithm {
        switch self {
        case .es256: .es256
        case .rs256: .rs256
        }
    }

    /// Whether `signature` (DER for ECDSA, raw for RSA, as WebAuthn sends them) signs `data` with SHA-256.
    public func isValidSignature(_ signature: [UInt8], for data: [UInt8]) -> Bool {
        switch self {
        case .es256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: data)
        case .rs256(let key):
            return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: data, padding: .insecurePKCS1v1_5)
        }
    }
}
