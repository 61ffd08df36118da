import Diary
import DiaryStore
import Foundation
import Testing

@testable import WebApp

/// The second step's codes: RFC 6238's test vectors (Appendix B, SHA-1, the last six of its eight digits), the window
/// of one step either side, and the recovery codes' form.
struct SecondStepTests {
    /// RFC 6238's SHA-1 key: the ASCII of "12345678901234567890".
    static let rfcSecret = "12345678901234567890"

    @Test(arguments: [
        (59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"), (1_234_567_890, "89005924"),
        (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
    ])
    func rfc6238Vectors(seconds: Int, eightDigits: String) {
        let step = SecondStep.step(at: Date(timeIntervalSince1970: Double(seconds)))
        #expect(SecondStep.code(secret: Self.rfcSecret, step: step) == String(eightDigits.suffix(6)))
    }

    @Test func aCodeIsGoodForTheStepEitherSideOfNowAndNoOther() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let step = SecondStep.step(at: now)
        for offset in [-1, 0, 1] as [Int64] {
            #expect(SecondStep.matchingStep(SecondStep.code(secret: Self.rfcSecret, step: step + offset), secret: Self.rfcSecret, now: now) == step + offset)
        }
        for offset in [-3, 2, 3] as [Int64] {
            let code = SecondStep.code(secret: Self.rfcSecret, step: step + offset)
            let near = [-1, 0, 1].map { SecondStep.code(secret: Self.rfcSecret, step: step + $0) }
            if !near.contains(code) { #expect(SecondStep.matchingStep(code, secret: Self.rfcSecret, now: now) == nil) }
        }
        #expect(SecondStep.matchingStep("12 34 5", secret: Self.rfcSecret, now: now) == nil)
        #expect(SecondStep.matchingStep("١٢٣٤٥٦", secret: Self.rfcSecret, now: now) == nil)  // digits of another script
    }

    @Test func secretsAndRecoveryCodes() {
        let secret = SecondStep.newSecret()
        #expect(secret.count == 32 && secret.allSatisfy { "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".contains($0) })
        #expect(SecondStep.newSecret() != secret)
        let codes = SecondStep.recoveryCodes()
        #expect(codes.count == 10 && Set(codes).count == 10)
        #expect(codes.allSatisfy { $0.count == 11 && $0.dropFirst(5).first == "-" })
        // Typed in capitals or without the dash, a code is the same code.
        let code = codes[0]
        #expect(SecondStep.digest(ofRecoveryCode: code.uppercased().replacingOccurrences(of: "-", with: " ")) == SecondStep.digest(ofRecoveryCode: code))
        #expect(SecondStep.authenticatorURL(secret: secret, username: "mina").hasPrefix("otpauth://totp/"))
    }

    @Test func theQRCodeIsDrawn() throws {
        let svg = try #require(QRCode.svg("otpauth://totp/%EC%83%88%EC%8B%B9:mina?secret=ABC&issuer=%EC%83%88%EC%8B%B9"))
        #expect(svg.hasPrefix("<svg") && svg.contains("<path d=\"M"))
    }
}

/// Wrong codes of the second step wait longer each round (issue 66: ten a minute without end).
struct CodeThrottleTests {
    @Test func eachRoundOfWrongCodesWaitsTwiceAsLong() {
        #expect(LoginThrottle.codeLock(after: 9) == nil)
        #expect(LoginThrottle.codeLock(after: 10) == 60)
        #expect(LoginThrottle.codeLock(after: 19) == 60)
        #expect(LoginThrottle.codeLock(after: 20) == 120)
        #expect(LoginThrottle.codeLock(after: 30) == 240)
        #expect(LoginThrottle.codeLock(after: 10_000) == LoginThrottle.longestCodeWait)
    }

    @Test func theWaitIsCountedOverADayAndEndsWithARightCode() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-codes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try DiaryDatabase(folder: folder)
        let throttle = LoginThrottle(store: database.stores.loginFailures)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for second in 0..<10 {
            try await throttle.recordCodeFailure(account: "Dad", address: "198.51.100.\(second)", now: start + Double(second))
        }
        #expect(try await throttle.codeWait(account: "dad", now: start + 30) == 39)
        #expect(try await throttle.codeWait(account: "dad", now: start + 70) == nil)
        // A second round, a few minutes on (the minute's own limit long over): two minutes.
        for second in 0..<10 {
            try await throttle.recordCodeFailure(account: "dad", address: "198.51.100.\(second)", now: start + 300 + Double(second))
        }
        #expect(try await throttle.codeWait(account: "dad", now: start + 309) == 120)
        // The minute's own look back does not forget them.
        #expect(try await throttle.wait(account: "dad", address: "203.0.113.1", now: start + 400) == nil)
        #expect(try await throttle.codeWait(account: "dad", now: start + 400) == 29)
        try await throttle.recordCodeSuccess(account: "dad")
        #expect(try await throttle.codeWait(account: "dad", now: start + 400) == nil)
    }
}
