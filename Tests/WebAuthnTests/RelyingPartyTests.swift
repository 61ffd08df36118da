import Crypto
import CryptoExtras
import Diary
import Foundation
import Testing
import WebAuthn

/// A software authenticator (P-256 or RSA keys from swift-crypto) answering our relying party, with every way an
/// answer can be wrong. The browser-made answers are tested in Chromium (blackbox/test_passkeys.py).
struct RelyingPartyTests {
    static let party = RelyingParty(id: "localhost", origin: "http://localhost:8080")

    /// What `navigator.credentials` would hand the page, made by hand.
    struct Authenticator {
        enum Key {
            case p256(P256.Signing.PrivateKey)
            case rsa(_RSA.Signing.PrivateKey)
        }

        let key: Key
        let credentialID: [UInt8] = Array(TokenBytes.random(32))
        var counter: UInt32 = 0

        static func p256() -> Authenticator { Authenticator(key: .p256(P256.Signing.PrivateKey())) }
        static func rsa() throws -> Authenticator { Authenticator(key: .rsa(try _RSA.Signing.PrivateKey(keySize: .bits2048))) }

        var coseKey: [UInt8] {
            switch key {
            case .p256(let key):
                let point = Array(key.publicKey.x963Representation)
                return Encode.map([
                    (Encode.int(1), Encode.int(2)), (Encode.int(3), Encode.int(-7)), (Encode.int(-1), Encode.int(1)),
                    (Encode.int(-2), Encode.bytes(Array(point[1...32]))), (Encode.int(-3), Encode.bytes(Array(point[33...64]))),
                ])
            case .rsa(let key):
                let primitives = try! key.publicKey.getKeyPrimitives()
                return Encode.map([
                    (Encode.int(1), Encode.int(3)), (Encode.int(3), Encode.int(-257)),
                    (Encode.int(-1), Encode.bytes(Array(primitives.modulus))), (Encode.int(-2), Encode.bytes(Array(primitives.publicExponent))),
                ])
            }
        }

        func authenticatorData(rpID: String, flags: UInt8, counter: UInt32, attested: Bool) -> [UInt8] {
            var data = Array(SHA256.hash(data: Data(rpID.utf8)))
            data.append(flags | (attested ? 0x40 : 0))
            data += withUnsafeBytes(of: counter.bigEndian) { Array($0) }
            if attested {
                data += [UInt8](repeating: 0, count: 16) + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)] + credentialID + coseKey
            }
            return data
        }

        static func clientData(type: String, challenge: [UInt8], origin: String) -> [UInt8] {
            Array(#"{"type":"\#(type)","challenge":"\#(Base64URL.encode(challenge))","origin":"\#(origin)","crossOrigin":false}"#.utf8)
        }

        func create(challenge: [UInt8], origin: String = party.origin, rpID: String = party.id, flags: UInt8 = 0x05)
            -> (clientData: [UInt8], attestation: [UInt8])
        {
            let object = Encode.map([
                (Encode.text("fmt"), Encode.text("none")), (Encode.text("attStmt"), Encode.map([])),
                (Encode.text("authData"), Encode.bytes(authenticatorData(rpID: rpID, flags: flags, counter: counter, attested: true))),
            ])
            return (Self.clientData(type: "webauthn.create", challenge: challenge, origin: origin), object)
        }

        mutating func get(challenge: [UInt8], origin: String = party.origin, rpID: String = party.id, flags: UInt8 = 0x05, step: UInt32 = 1)
            -> (clientData: [UInt8], authenticatorData: [UInt8], signature: [UInt8])
        {
            counter += step
            let clientData = Self.clientData(type: "webauthn.get", challenge: challenge, origin: origin)
            let data = authenticatorData(rpID: rpID, flags: flags, counter: counter, attested: false)
            let signed = data + Array(SHA256.hash(data: clientData))
            let signature: [UInt8] = switch key {
            case .p256(let key): Array(try! key.signature(for: signed).derRepresentation)
            case .rsa(let key): Array(try! key.signature(for: signed, padding: .insecurePKCS1v1_5).rawRepresentation)
            }
            return (clientData, data, signature)
        }
    }

    /// Just enough CBOR writing for the tests' answers.
    enum Encode {
        static func head(_ major: UInt8, _ value: UInt64) -> [UInt8] {
            switch value {
            case 0..<24: [major << 5 | UInt8(value)]
            case 24..<256: [major << 5 | 24, UInt8(value)]
            case 256..<65536: [major << 5 | 25, UInt8(value >> 8), UInt8(value & 0xFF)]
            default: [major << 5 | 26] + withUnsafeBytes(of: UInt32(value).bigEndian) { Array($0) }
            }
        }
        static func int(_ value: Int) -> [UInt8] { value >= 0 ? head(0, UInt64(value)) : head(1, UInt64(-1 - value)) }
        static func bytes(_ value: [UInt8]) -> [UInt8] { head(2, UInt64(value.count)) + value }
        static func text(_ value: String) -> [UInt8] { head(3, UInt64(value.utf8.count)) + Array(value.utf8) }
        static func map(_ pairs: [([UInt8], [UInt8])]) -> [UInt8] { head(5, UInt64(pairs.count)) + pairs.flatMap { $0.0 + $0.1 } }
    }

    enum TokenBytes {
        static func random(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255) } }
    }

    @Test(arguments: [false, true])
    func registersAndSignsIn(rsa: Bool) throws {
        var authenticator = rsa ? try Authenticator.rsa() : Authenticator.p256()
        let challenge = TokenBytes.random(32)
        let made = authenticator.create(challenge: challenge)
        let credential = try Self.party.register(clientDataJSON: made.clientData, attestationObject: made.attestation, challenge: challenge)
        #expect(credential.id == authenticator.credentialID)
        #expect(credential.algorithm == (rsa ? .rs256 : .es256))
        let key = try COSEKey(bytes: credential.publicKeyBytes)

        let signInChallenge = TokenBytes.random(32)
        let used = authenticator.get(challenge: signInChallenge)
        let count = try Self.party.authenticate(
            clientDataJSON: used.clientData, authenticatorData: used.authenticatorData, signature: used.signature,
            challenge: signInChallenge, publicKey: key, storedSignCount: credential.signCount)
        #expect(count == 1)
    }

    @Test func refusesWhatIsWrong() throws {
        var authenticator = Authenticator.p256()
        let challenge = TokenBytes.random(32)
        func registering(_ made: (clientData: [UInt8], attestation: [UInt8])) -> RelyingParty.Failure? {
            do {
                _ = try Self.party.register(clientDataJSON: made.clientData, attestationObject: made.attestation, challenge: challenge)
                return nil
            } catch { return error as? RelyingParty.Failure }
        }
        #expect(registering(authenticator.create(challenge: TokenBytes.random(32))) == .wrongChallenge)
        #expect(registering(authenticator.create(challenge: challenge, origin: "http://evil.example")) == .wrongOrigin)
        #expect(registering(authenticator.create(challenge: challenge, rpID: "evil.example")) == .wrongRelyingParty)
        #expect(registering(authenticator.create(challenge: challenge, flags: 0x01)) == .notVerified)

        let made = authenticator.create(challenge: challenge)
        let key = try COSEKey(bytes: try Self.party.register(clientDataJSON: made.clientData, attestationObject: made.attestation, challenge: challenge).publicKeyBytes)
        func signingIn(_ used: (clientData: [UInt8], authenticatorData: [UInt8], signature: [UInt8]), stored: UInt32 = 0, key: COSEKey = key) -> RelyingParty.Failure? {
            do {
                _ = try Self.party.authenticate(
                    clientDataJSON: used.clientData, authenticatorData: used.authenticatorData, signature: used.signature,
                    challenge: challenge, publicKey: key, storedSignCount: stored)
                return nil
            } catch { return error as? RelyingParty.Failure }
        }
        #expect(signingIn(authenticator.get(challenge: challenge)) == nil)
        #expect(signingIn(authenticator.get(challenge: challenge, origin: "https://localhost.evil.example")) == .wrongOrigin)
        #expect(signingIn(authenticator.get(challenge: challenge, rpID: "evil.example")) == .wrongRelyingParty)
        #expect(signingIn(authenticator.get(challenge: challenge, flags: 0x01)) == .notVerified)
        // A copy of the authenticator behind the one in use: its counter does not move past the stored one.
        #expect(signingIn(authenticator.get(challenge: challenge), stored: 100) == .counterWentBack)
        #expect(signingIn(authenticator.get(challenge: challenge, step: 0), stored: authenticator.counter) == .counterWentBack)
        // Another key's signature.
        var other = Authenticator.p256()
        let otherKey = try COSEKey(bytes: other.coseKey)
        #expect(signingIn(authenticator.get(challenge: challenge), key: otherKey) == .badSignature)
        _ = other.get(challenge: challenge)
        // The create ceremony's client data is not a sign-in.
        let swapped = authenticator.get(challenge: challenge)
        #expect(signingIn((made.clientData, swapped.authenticatorData, swapped.signature)) == .wrongType)
    }

    @Test func refusesKeysWeDoNotUse() throws {
        // ES384 (alg −35), and an EC2 key whose point is not on the curve.
        let es384 = Encode.map([(Encode.int(1), Encode.int(2)), (Encode.int(3), Encode.int(-35))])
        #expect(throws: COSEKey.Error.unsupportedAlgorithm) { try COSEKey(bytes: es384) }
        let offCurve = Encode.map([
            (Encode.int(1), Encode.int(2)), (Encode.int(3), Encode.int(-7)), (Encode.int(-1), Encode.int(1)),
            (Encode.int(-2), Encode.bytes([UInt8](repeating: 1, count: 32))), (Encode.int(-3), Encode.bytes([UInt8](repeating: 2, count: 32))),
        ])
        #expect(throws: COSEKey.Error.badParameters("point")) { try COSEKey(bytes: offCurve) }
        #expect(throws: COSEKey.Error.notAKey) { try COSEKey(bytes: Encode.int(5)) }
    }
}
