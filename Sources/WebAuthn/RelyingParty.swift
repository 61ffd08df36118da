import Crypto
import Diary
import Foundation

/// Our side of WebAuthn (Level 2, §7): checks what a browser posts after `navigator.credentials.create` (a passkey
/// made) or `.get` (a sign-in) against the challenge we gave, our origin and relying party id.
///
/// Attestation is `none`: we ask nobody to prove what make of authenticator it is (a family's phones are what they
/// are), so the attestation statement is not read. User verification is required: the phone's fingerprint, face or
/// PIN, so that a passkey stands alone, without a password.
public struct RelyingParty: Sendable {
    /// The relying party id: the site's host name (never an IP address; browsers refuse those).
    public let id: String
    /// The one origin pages are served from (`https://diary.example.kr`, `http://localhost:8080`).
    public let origin: String

    public init(id: String, origin: String) {
        self.id = id
        self.origin = origin
    }

    /// What a browser says it was asked (the client data, WebAuthn §5.8.1), as far as we read it.
    struct ClientData: Decodable {
        let type: String
        let challenge: String
        let origin: String
        let crossOrigin: Bool?
    }

    public enum Failure: Swift.Error, Equatable, CustomStringConvertible {
        case malformed(String)
        case wrongType
        case wrongChallenge
        case wrongOrigin
        case wrongRelyingParty
        case notVerified
        case badSignature
        /// The counter did not move forward: the authenticator was cloned, or the assertion is a replay.
        case counterWentBack

        public var description: String {
            switch self {
            case .malformed(let what): "the passkey's answer is malformed: \(what)"
            case .wrongType: "the passkey's answer is for another ceremony"
            case .wrongChallenge: "the passkey's answer is for another challenge"
            case .wrongOrigin: "the passkey's answer comes from another site"
            case .wrongRelyingParty: "the passkey belongs to another site"
            case .notVerified: "the passkey did not verify its user (fingerprint, face or PIN)"
            case .badSignature: "the passkey's signature does not verify"
            case .counterWentBack: "the passkey's counter went back: it may have been copied"
            }
        }
    }

    /// A new passkey, checked.
    public struct NewCredential: Sendable {
        public let id: [UInt8]
        public let publicKeyBytes: [UInt8]
        public let algorithm: COSEKey.Algorithm
        public let signCount: UInt32
    }

    /// The largest client data and attestation object we read (a real one is a few hundred bytes).
    public static let maxMessageBytes = 16 * 1024

    /// Checks a registration: the client data (type, challenge, origin), then the attestation object's authenticator
    /// data (our relying party, user present and verified, a credential with a key we can use).
    public func register(clientDataJSON: [UInt8], attestationObject: [UInt8], challenge: [UInt8]) throws -> NewCredential {
        try checkClientData(clientDataJSON, type: "webauthn.create", challenge: challenge)
        guard attestationObject.count <= Self.maxMessageBytes else { throw Failure.malformed("the attestation is too large") }
        let object: CBOR
        do { object = try CBOR(decoding: attestationObject) } catch { throw Failure.malformed(error.description) }
        guard let authData = object[text: "authData"]?.byteString, object[text: "fmt"]?.textString != nil else {
            throw Failure.malformed("the attestation has no authenticator data")
        }
        let data = try authenticatorData(authData)
        guard let credential = data.credential else { throw Failure.malformed(AuthenticatorData.Error.credentialMissing.description) }
        return NewCredential(
            id: credential.id, publicKeyBytes: credential.publicKeyBytes, algorithm: credential.publicKey.algorithm,
            signCount: data.signCount)
    }

    /// Checks a sign-in with a stored passkey; returns the counter to store. A counter that does not move forward
    /// (when either side has one: authenticators that keep none always say 0) is refused.
    public func authenticate(
        clientDataJSON: [UInt8], authenticatorData authData: [UInt8], signature: [UInt8], challenge: [UInt8],
        publicKey: COSEKey, storedSignCount: UInt32
    ) throws -> UInt32 {
        try checkClientData(clientDataJSON, type: "webauthn.get", challenge: challenge)
        let data = try authenticatorData(authData)
        guard signature.count <= 1024,
            publicKey.isValidSignature(signature, for: authData + Array(SHA256.hash(data: clientDataJSON)))
        else { throw Failure.badSignature }
        if data.signCount != 0 || storedSignCount != 0, data.signCount <= storedSignCount { throw Failure.counterWentBack }
        return data.signCount
    }

    /// The challenge a browser's client data answers (to find it among those we gave), or nil when it is not there.
    public static func challenge(inClientData bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count <= maxMessageBytes, let client = try? JSONDecoder().decode(ClientData.self, from: Data(bytes)) else { return nil }
        return Base64URL.decode(client.challenge)
    }

    private func checkClientData(_ bytes: [UInt8], type: String, challenge: [UInt8]) throws {
        guard bytes.count <= Self.maxMessageBytes, let client = try? JSONDecoder().decode(ClientData.self, from: Data(bytes)) else {
            throw Failure.malformed("the client data is not the JSON a browser sends")
        }
        guard client.type == type else { throw Failure.wrongType }
        guard let given = Base64URL.decode(client.challenge), Self.constantTimeEqual(given, challenge) else { throw Failure.wrongChallenge }
        guard client.origin == origin, client.crossOrigin != true else { throw Failure.wrongOrigin }
    }

    private func authenticatorData(_ bytes: [UInt8]) throws -> AuthenticatorData {
        let data: AuthenticatorData
        do { data = try AuthenticatorData(bytes: bytes) } catch let error as any CustomStringConvertible {
            throw Failure.malformed(error.description)
        }
        guard Self.constantTimeEqual(data.relyingPartyIDHash, Array(SHA256.hash(data: Data(id.utf8)))) else { throw Failure.wrongRelyingParty }
        guard data.userPresent, data.userVerified else { throw Failure.notVerified }
        return data
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
