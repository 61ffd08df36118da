import Testing

@testable import Multipart

/// What a parser saw: each part's headers and bytes, and whether the body closed.
private struct Parsed: Equatable {
    var parts: [(headers: [MultipartHeader], body: [UInt8])] = []
    var complete = false

    static func == (a: Parsed, b: Parsed) -> Bool {
        a.complete == b.complete && a.parts.count == b.parts.count
            && zip(a.parts, b.parts).allSatisfy { $0.headers == $1.headers && $0.body == $1.body }
    }
}

/// Feeds `body` in pieces cut at `cuts` (offsets), collecting what the parser reports.
private func parse(_ body: [UInt8], boundary: String, cuts: [Int] = [], maxParts: Int = 1000) throws -> Parsed {
    var parser = try MultipartParser(boundary: boundary, maxParts: maxParts)
    var parsed = Parsed()
    var open = false
    var start = 0
    for end in (cuts.filter { $0 > 0 && $0 < body.count }.sorted() + [body.count]) where end >= start {
        try parser.feed(Array(body[start..<end])) { event in
            switch event {
            case .part(let headers):
                #expect(!open)
                parsed.parts.append((headers, []))
                open = true
            case .body(let bytes):
                #expect(open)
                parsed.parts[parsed.parts.count - 1].body += bytes
            case .partEnd:
                #expect(open)
                open = false
            }
        }
        start = end
    }
    parsed.complete = parser.isComplete
    return parsed
}

private func form(_ boundary: String, _ parts: [(String, [UInt8])], preamble: String = "") -> [UInt8] {
    var body = Array(preamble.utf8)
    for (disposition, bytes) in parts {
        body += Array("--\(boundary)\r\nContent-Disposition: \(disposition)\r\n\r\n".utf8) + bytes + Array("\r\n".utf8)
    }
    return body + Array("--\(boundary)--\r\n".utf8)
}

/// A small deterministic generator, so that a failing case can be replayed from its seed.
private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct MultipartParserTests {
    @Test func readsFieldsAndFiles() throws {
        let body = form("XyZ", [("form-data; name=\"title\"", Array("첫 걸음".utf8)), ("form-data; name=\"photo\"; filename=\"a.jpg\"", [0xFF, 0xD8, 13, 10, 45, 0xFF])])
        let parsed = try parse(body, boundary: "XyZ")
        #expect(parsed.complete)
        #expect(parsed.parts.count == 2)
        #expect(parsed.parts[0].headers == [MultipartHeader(name: "Content-Disposition", value: "form-data; name=\"title\"")])
        #expect(String(decoding: parsed.parts[0].body, as: UTF8.self) == "첫 걸음")
        #expect(parsed.parts[1].body == [0xFF, 0xD8, 13, 10, 45, 0xFF])
        #expect(parsed.parts[1].headers[0].parameter("filename") == "a.jpg")
        #expect(parsed.parts[1].headers[0].parameter("name") == "photo")
    }

    @Test func parametersKeepQuotedSemicolonsAndEscapes() {
        let header = MultipartHeader(name: "Content-Disposition", value: #"form-data; name="a;b"; filename="x\"y.jpg""#)
        #expect(header.parameter("name") == "a;b")
        #expect(header.parameter("FILENAME") == #"x"y.jpg"#)
        #expect(header.parameter("size") == nil)
        #expect(MultipartHeader(name: "Content-Type", value: "multipart/form-data; boundary=\"\"").parameter("boundary") == "")
    }

    /// The two requests that killed the server through MultipartKit 4.7.1 (issues 16 and 17).
    @Test func refusesWhatTrappedTheOldParser() throws {
        #expect(throws: MultipartError.self) { try MultipartParser(boundary: "") }
        #expect(throws: MultipartError.self) { try MultipartParser(boundary: "\u{00e9}x") }
        var body = Array("--b\r\n".utf8) + [0xC3, 0xA9, 0x80, 0xFF] + Array(": x\r\n\r\nhi\r\n--b--\r\n".utf8)
        #expect(throws: MultipartError.self) { try parse(body, boundary: "b") }
        body = Array("--b\r\nname\r\n\r\nhi\r\n--b--\r\n".utf8)
        #expect(throws: MultipartError.self) { try parse(body, boundary: "b") }
    }

    @Test func boundsPartsAndHeaders() throws {
        let parts = Array(repeating: ("form-data; name=\"x\"", [UInt8]()), count: 11)
        #expect(throws: MultipartError.tooManyParts(10)) { try parse(form("b", parts), boundary: "b", maxParts: 10) }
        #expect(try parse(form("b", Array(parts.prefix(10))), boundary: "b", maxParts: 10).parts.count == 10)
        let long = Array("--b\r\nX-Long: ".utf8) + Array(repeating: UInt8(97), count: MultipartParser.maxHeaderBytes)
        #expect(throws: MultipartError.headersTooLong) { try parse(long, boundary: "b") }
        #expect(throws: MultipartError.headersTooLong) { try parse(long, boundary: "b", cuts: Array(stride(from: 1, to: long.count, by: 97))) }
    }

    @Test func truncatedBodiesAreNotComplete() throws {
        let body = form("b", [("form-data; name=\"x\"", Array("abc".utf8))])
        for length in 0..<body.count - 2 {
            let parsed = try? parse(Array(body.prefix(length)), boundary: "b")
            #expect(parsed?.complete != true, "\(length) bytes")
        }
        #expect(throws: MultipartError.truncated) { try MultipartParser(boundary: "b").finish() }
    }

    @Test func preambleEpilogueAndPaddingAreAllowed() throws {
        var body = form("b", [("form-data; name=\"x\"", Array("v".utf8))], preamble: "ignored preamble\r\n")
        body += Array("epilogue --b\r\n".utf8)
        let parsed = try parse(body, boundary: "b")
        #expect(parsed.complete && parsed.parts.count == 1 && parsed.parts[0].body == Array("v".utf8))
        let padded = Array("--b  \t\r\nA: 1\r\n\r\nv\r\n--b--".utf8)
        #expect(try parse(padded, boundary: "b").parts[0].body == Array("v".utf8))
    }

    /// Property: however the body is cut into chunks, the parser reports the same parts; bodies that contain
    /// near-delimiters (CR, LF, dashes, the boundary without its line break) come through byte for byte.
    @Test(arguments: 0..<300) func chunkingNeverChangesTheResult(seed: UInt64) throws {
        var random = SplitMix64(state: seed)
        let boundary = "----Bnd" + String(Int.random(in: 0..<1000, using: &random))
        let alphabet: [[UInt8]] = [[13], [10], [45], [45, 45], Array(boundary.utf8), Array("--\(boundary)".utf8), [0], [0xFF], Array("a".utf8)]
        var parts: [(String, [UInt8])] = []
        for index in 0..<Int.random(in: 0...5, using: &random) {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...40, using: &random) { bytes += alphabet.randomElement(using: &random)! }
            // A part cannot hold its own delimiter (that is what ends it): cut the body before one.
            let delimiter = Array("\r\n--\(boundary)".utf8)
            if let index = (0..<bytes.count).first(where: { bytes[$0...].starts(with: delimiter) }) { bytes.removeSubrange(index...) }
            parts.append(("form-data; name=\"f\(index)\"", bytes))
        }
        let body = form(boundary, parts)
        let whole = try parse(body, boundary: boundary)
        #expect(whole.complete)
        #expect(whole.parts.map(\.body) == parts.map(\.1))
        let cuts = (0..<Int.random(in: 1...12, using: &random)).map { _ in Int.random(in: 0...body.count, using: &random) }
        #expect(try parse(body, boundary: boundary, cuts: cuts) == whole)
        let bytewise = try parse(body, boundary: boundary, cuts: Array(0...body.count))
        #expect(bytewise == whole)
    }

    /// Property: random bytes (and random mutations of a valid body) give a result or an error, never a trap.
    @Test(arguments: 0..<300) func anyBytesAreSafe(seed: UInt64) {
        var random = SplitMix64(state: seed &* 7919)
        var body = form("b", [("form-data; name=\"x\"; filename=\"y\"", Array("content".utf8))])
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            let position = Int.random(in: 0..<body.count, using: &random)
            body[position] = UInt8.random(in: 0...255, using: &random)
        }
        _ = try? parse(body, boundary: "b", cuts: [Int.random(in: 0...body.count, using: &random)])
        let noise = (0..<Int.random(in: 0...200, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        _ = try? parse(Array("--b\r\n".utf8) + noise, boundary: "b")
    }
}
