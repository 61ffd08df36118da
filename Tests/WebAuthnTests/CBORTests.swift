import Testing
import WebAuthn

/// RFC 8949 Appendix A's examples (the ones WebAuthn's subset holds), and inputs that must be refused, not trap.
struct CBORTests {
    static func bytes(_ hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return result
    }

    @Test(arguments: [
        ("00", CBOR.unsigned(0)), ("17", .unsigned(23)), ("1818", .unsigned(24)), ("1903e8", .unsigned(1000)),
        ("1bffffffffffffffff", .unsigned(.max)), ("20", .negative(0)), ("3863", .negative(99)),
        ("3bffffffffffffffff", .negative(.max)), ("40", .bytes([])), ("4401020304", .bytes([1, 2, 3, 4])),
        ("60", .text("")), ("6449455446", .text("IETF")), ("62c3bc", .text("ü")), ("f4", .bool(false)), ("f5", .bool(true)),
        ("f6", .null), ("f7", .undefined), ("80", .array([])), ("83010203", .array([.unsigned(1), .unsigned(2), .unsigned(3)])),
        ("a0", .map([])), ("a201020304", .map([(.unsigned(1), .unsigned(2)), (.unsigned(3), .unsigned(4))])),
        ("c11a514b67b0", .tagged(1, .unsigned(1_363_896_240))),
    ])
    func decodesTheRFCsExamples(hex: String, expected: CBOR) throws {
        #expect(try CBOR(decoding: Self.bytes(hex)) == expected)
    }

    @Test(arguments: [
        ("", CBOR.Error.truncated), ("18", .truncated), ("5a00000010", .truncated), ("9bffffffffffffffff", .truncated),
        ("bbffffffffffffffff", .truncated), ("5f", .indefiniteLength), ("9f", .indefiniteLength), ("1c", .reservedArgument),
        ("62c328", .invalidText), ("0000", .trailingBytes), ("a1", .truncated),
        (String(repeating: "81", count: 40) + "00", .tooDeep),
    ])
    func refusesMalformedInput(hex: String, error: CBOR.Error) {
        #expect(throws: error) { try CBOR(decoding: Self.bytes(hex)) }
    }

    /// A count that claims more items than there are bytes is refused before anything is reserved (a 9-byte input
    /// cannot ask for 2⁶⁴ array slots).
    @Test func countsAreCheckedAgainstTheBytesLeft() {
        #expect(throws: CBOR.Error.truncated) { try CBOR(decoding: Self.bytes("9a7fffffff00")) }
    }

    @Test func mapLookupsByTextAndLabel() throws {
        let map = try CBOR(decoding: Self.bytes("a3010203206366" + "6d74646e6f6e65"))
        #expect(map[label: 1] == .unsigned(2))
        #expect(map[label: 3]?.integer == -1)
        #expect(map[text: "fmt"]?.textString == "none")
    }
}
