import Foundation
import Testing

@testable import ObjectStorage

@Suite struct SignatureV4Tests {
    static let example = S3Credentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
    static let may24 = Date(timeIntervalSince1970: 1_369_353_600)  // 2013-05-24T00:00:00Z

    static func signature(_ headers: [(String, String)]) -> String? {
        headers.first { $0.0 == "authorization" }?.1.components(separatedBy: "Signature=").last
    }

    /// AWS's published examples ("Examples: Signature Calculations in AWS Signature Version 4", S3 documentation).
    @Test func awsDocumentedExamples() {
        let signer = SignatureV4(credentials: Self.example, region: "us-east-1")
        let get = signer.sign(
            method: "GET", host: "examplebucket.s3.amazonaws.com", path: "/test.txt", query: [], headers: [("Range", "bytes=0-9")],
            payloadHash: SignatureV4.emptyPayloadHash, date: Self.may24)
        #expect(Self.signature(get) == "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        #expect(get.first { $0.0 == "authorization" }?.1.contains("SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,") == true)
        let list = signer.sign(
            method: "GET", host: "examplebucket.s3.amazonaws.com", path: "/", query: [("prefix", "J"), ("max-keys", "2")], headers: [],
            payloadHash: SignatureV4.emptyPayloadHash, date: Self.may24)
        #expect(Self.signature(list) == "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7")
        let lifecycle = signer.sign(
            method: "GET", host: "examplebucket.s3.amazonaws.com", path: "/", query: [("lifecycle", "")], headers: [],
            payloadHash: SignatureV4.emptyPayloadHash, date: Self.may24)
        #expect(Self.signature(lifecycle) == "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543")
    }

    @Test func encodingFollowsRFC3986() {
        #expect(SignatureV4.uriEncode("a b+c/d~e_f.g-h") == "a%20b%2Bc%2Fd~e_f.g-h")
        #expect(SignatureV4.uriEncode("사진") == "%EC%82%AC%EC%A7%84")
        #expect(SignatureV4.canonicalPath("/bucket/a b/c") == "/bucket/a%20b/c")
        #expect(SignatureV4.canonicalQuery([("b", "2"), ("a", "x y"), ("a", "1")]) == "a=1&a=x%20y&b=2")
    }

    /// Generated requests — keys with spaces, Hangul and reserved characters, queries, odd header spacing — signed
    /// here and by botocore (the venv's `SAESSAK_TEST_PYTHON`), which must agree on every signature.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SAESSAK_TEST_PYTHON"] != nil))
    func agreesWithBotocoreOnGeneratedRequests() throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["photos", "사진", "a b", "x+y", "%41", "~tilde", "semi;colon", "é", "dot.", "(paren)", "star*", "=eq", "&amp"]
        func text(_ count: Int) -> String { (0..<count).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined() }
        struct Case: Codable {
            var method, host, path, payloadHash, accessKey, secretKey, region: String
            var query: [[String]]
            var headers: [[String]]
            var time: Double
        }
        var cases: [Case] = []
        for index in 0..<300 {
            let key = (0..<Int.random(in: 1...4, using: &generator)).map { _ in text(Int.random(in: 1...3, using: &generator)) }.joined(separator: "/")
            let query = (0..<Int.random(in: 0...3, using: &generator)).map { _ in [text(1), index % 3 == 0 ? "" : text(2)] }
            var headers = [["Content-Type", "image/jpeg"]]
            if index % 2 == 0 { headers.append(["x-amz-meta-sha256", "  spaced   value  "]) }
            if index % 5 == 0 { headers.append(["Range", "bytes=0-\(index)"]) }
            cases.append(
                Case(
                    method: ["GET", "PUT", "HEAD", "DELETE", "POST"][index % 5], host: index % 2 == 0 ? "127.0.0.1:8333" : "bucket.s3.amazonaws.com",
                    path: "/" + key, payloadHash: index % 4 == 0 ? SignatureV4.emptyPayloadHash : String(repeating: "ab", count: 32),
                    accessKey: "AKID\(index)", secretKey: "secret/\(text(2))+\(index)", region: ["us-east-1", "ap-northeast-2", "auto"][index % 3],
                    query: query, headers: headers, time: Double(1_700_000_000 + index * 86_401)))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProcessInfo.processInfo.environment["SAESSAK_TEST_PYTHON"] ?? "")
        process.arguments = [URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("sigv4_oracle.py").path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(try JSONEncoder().encode(cases))
        try input.fileHandleForWriting.close()
        let answer = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let expected = try JSONDecoder().decode([String].self, from: answer)
        try #require(expected.count == cases.count)
        for (index, item) in cases.enumerated() {
            let signer = SignatureV4(credentials: S3Credentials(accessKeyID: item.accessKey, secretAccessKey: item.secretKey), region: item.region)
            let headers = signer.sign(
                method: item.method, host: item.host, path: item.path, query: item.query.map { ($0[0], $0[1]) },
                headers: item.headers.map { ($0[0], $0[1]) }, payloadHash: item.payloadHash, date: Date(timeIntervalSince1970: item.time))
            let theirs = expected[index].components(separatedBy: "Signature=").last
            #expect(Self.signature(headers) == theirs, "case \(index): \(item.method) \(item.path) \(item.query)")
        }
    }
}
