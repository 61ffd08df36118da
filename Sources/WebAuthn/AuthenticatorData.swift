/// The authenticator's own statement in a registration or an assertion (WebAuthn §6.1): the hash of the relying
/// party's id, flags, the signature counter and, when a credential is made, its id and public key.
public struct AuthenticatorData: Sendable {
    public let relyingPartyIDHash: [UInt8]
    public let userPresent: Bool
    public let userVerified: Bool
    public let signCount: UInt32
    /// Present in a registration (the AT flag).
    public let credential: AttestedCredential?

    public struct AttestedCredential: Sendable {
        public let id: [UInt8]
        /// The COSE key's CBOR, as it arrived: stored as is, read again for each sign-in.
        public let publicKeyBytes: [UInt8]
        public let publicKey: COSEKey
    }

    /// Credential ids are at most 1023 bytes (WebAuthn §5.8.3's limit for what a relying party must store).
    public static let maxCredentialIDLength = 1023

    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case tooShort
        case credentialMissing
        case badCredential(String)

        public var description: String {
            switch self {
            case .tooShort: "the authenticator data is too short"
            case .credentialMissing: "the authenticator data carries no credential"
            case .badCredential(let why): "the credential in the authenticator data is not usable: \(why)"
            }
        }
    }

    public init(bytes: [UInt8]) throws {
        guard bytes.count >= 37 else { throw Error.tooShort }
        relyingPartyIDHash = Array(bytes[0..<32])
        let flags = bytes[32]
        userPresent = flags & 0x01 != 0
        userVerified = flags & 0x04 != 0
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        guard flags & 0x40 != 0 else {
            credential = nil
            return
        }
        // AAGUID (16 bytes), the id's length (2), the id, then the COSE key (and any extensions after it).
        guard bytes.count >= 55 else { throw Error.badCredential("it is cut short") }
        let idLength = Int(bytes[53]) << 8 | Int(bytes[54])
        guard idLength > 0, idLength <= Self.maxCredentialIDLength, bytes.count >= 55 + idLength + 1 else {
            throw Error.badCredential("its id's length is wrong")
        }
        let id = Array(bytes[55..<(55 + idLength)])
        let rest = bytes[(55 + idLength)...]
        let (key, length) = try CBOR.decodePrefix(rest)
        credential = AttestedCredential(id: id, publicKeyBytes: Array(rest.prefix(length)), publicKey: try COSEKey(key))
    }
}
