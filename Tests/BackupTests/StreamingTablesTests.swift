import Foundation
import Persistence
import Testing
import ZIPReading

@testable import Backup

/// A backup's tables are split into rows as their bytes arrive: however the bytes are cut, the same rows; framing
/// that is not an array of objects, a row past the limit and a file cut short are refused by name.
@Suite struct StreamingTablesTests {
    static let table = Array("""
        [
        {"body":"쉼표, 괄호 } ] 그리고 \\"따옴표\\" \\\\","id":"e1","n":3},
        {"id":"e2","nested":{"a":[1,{"b":null}]},"photo":{"base64":"AAE="}}
        ]

        """.utf8)

    func split(_ bytes: [UInt8], pieces: Int, limit: Int = 1 << 20) throws(JSONArrayElements.Failure) -> [String] {
        var elements = JSONArrayElements(maxElementBytes: limit)
        var found: [[UInt8]] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + pieces)
            found += try elements.feed(bytes[offset..<end])
            offset = end
        }
        try elements.finish()
        return found.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test(arguments: [1, 2, 3, 7, 64, 4_096])
    func theSameRowsHoweverTheBytesAreCut(pieces: Int) throws {
        let rows = try split(Self.table, pieces: pieces)
        #expect(rows.count == 2)
        let first = try JSONDecoder().decode([String: DumpValue].self, from: Data(rows[0].utf8))
        #expect(first["body"] == .text("쉼표, 괄호 } ] 그리고 \"따옴표\" \\"))
        // Splitting judges only the framing; a value that is not a column's is JSONDecoder's to refuse.
        #expect(rows[1] == #"{"id":"e2","nested":{"a":[1,{"b":null}]},"photo":{"base64":"AAE="}}"#)
    }

    @Test func anEmptyTableAndTheOldPrettyPrintedFormat() throws {
        #expect(try split(Array("[\n]\n".utf8), pieces: 1).isEmpty)
        #expect(try split(Array("[]".utf8), pieces: 5).isEmpty)
        let pretty = Array("[\n  {\n    \"id\" : \"a\",\n    \"n\" : [\n      1\n    ]\n  }\n]".utf8)
        #expect(try split(pretty, pieces: 3) == ["{\n    \"id\" : \"a\",\n    \"n\" : [\n      1\n    ]\n  }"])
    }

    @Test(arguments: ["", "{}", "[1]", "[{},]", "[,{}]", "[{}] x", "[{}}", "[{} {}]", "[{\"a\":1}"])
    func whatIsNotAnArrayOfObjectsIsRefused(text: String) {
        #expect(throws: JSONArrayElements.Failure.self) { try split(Array(text.utf8), pieces: 2) }
    }

    @Test func aRowPastTheLimitIsRefusedBeforeItIsGathered() {
        let long = Array("[{\"body\":\"\(String(repeating: "가", count: 100))\"}]".utf8)
        #expect(throws: JSONArrayElements.Failure.elementTooLong(64)) { try split(long, pieces: 10, limit: 64) }
    }

    @Test func anArrayCutShortIsRefused() {
        #expect(throws: JSONArrayElements.Failure.cutShort) { try split(Array("[{\"a\":1},".utf8), pieces: 4) }
    }
}
