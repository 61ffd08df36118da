import Foundation
import Testing

@testable import Secrets

@Suite struct SecretsTests {
    let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-secrets-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    @Test func cipherRoundTripsAndKeyFileIsPrivate() throws {
        let cipher = try FieldCipher.forDataFolder(folder, environment: [:])
        let sealed = try cipher.seal("240229-4123456")
        #expect(!String(decoding: sealed, as: UTF8.self).contains("4123456"))
        #expect(try cipher.seal("240229-4123456") != sealed)  // a fresh nonce each time
        let reopened = try FieldCipher.forDataFolder(folder, environment: [:])
        #expect(try reopened.open(sealed) == "240229-4123456")
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("secret.key").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func keyFromTheEnvironmentWins() throws {
        let key = Data(repeating: 7, count: 32).base64EncodedString()
        let cipher = try FieldCipher.forDataFolder(folder, environment: [FieldCipher.environmentVariable: key])
        let sealed = try cipher.seal("x")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("secret.key").path))
        let other = try FieldCipher.forDataFolder(folder, environment: [:])
        #expect(throws: (any Error).self) { try other.open(sealed) }
        #expect(throws: SecretsError.self) {
            try FieldCipher.forDataFolder(folder, environment: [FieldCipher.environmentVariable: "c2hvcnQ="])
        }
    }

    @Test func tokensAreRandomAndOnlyTheirDigestIsKept() {
        let (token, digest) = TokenGenerator.make()
        #expect(token.hasPrefix("ssk_") && token.count == 4 + 43)
        #expect(digest == TokenGenerator.digest(of: token))
        #expect(digest.count == 32)
        #expect(TokenGenerator.make().token != token)
    }

    @Test func passwords() {
        let hasher = PasswordHasher(cost: 4)
        let hash = hasher.hash("correct horse")
        #expect(hash.hasPrefix("$2b$04$"))
        #expect(hasher.verify("correct horse", against: hash))
        #expect(!hasher.verify("correct horsf", against: hash))
        #expect(PasswordHasher.problem(with: "short") != nil)
        #expect(PasswordHasher.problem(with: "long enough") == nil)
    }

    @Test func signaturesHoldForTheirMessageAndPurposeOnly() {
        let cipher = FieldCipher.random()
        let signature = cipher.signature(of: "family|user", purpose: "unsubscribe")
        #expect(signature.count == 32)
        #expect(cipher.verifies(signature, of: "family|user", purpose: "unsubscribe"))
        #expect(!cipher.verifies(signature, of: "family|other", purpose: "unsubscribe"))
        #expect(!cipher.verifies(signature, of: "family|user", purpose: "something else"))
        #expect(!FieldCipher.random().verifies(signature, of: "family|user", purpose: "unsubscribe"))
        #expect(!cipher.verifies(Data(signature.prefix(31)), of: "family|user", purpose: "unsubscribe"))
    }
}
