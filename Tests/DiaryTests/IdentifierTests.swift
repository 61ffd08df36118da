import Foundation
import Testing

@testable import Diary

/// `UUIDText` reads and writes a UUID's text byte by byte; Foundation's `UUID(uuidString:)` and `uuidString` are the
/// oracle, over generated UUIDs in both letter cases and over texts a byte away from one. Foundation on Linux reads
/// with `sscanf`, which also takes a space or a sign before a pair of digits (` 0F378E9-…`, `-19E75BF-…`); only the
/// exact form is an identifier here.
@Suite struct IdentifierTests {
    @Test func readsAndWritesWhatFoundationDoes() {
        for _ in 0..<2000 {
            let uuid = UUID()
            #expect(UUIDText.lowercase(uuid) == uuid.uuidString.lowercased())
            #expect(UUIDText.parse(uuid.uuidString) == uuid)
            #expect(UUIDText.parse(uuid.uuidString.lowercased()) == uuid)
            #expect(EntryID(uuid.uuidString)?.description == uuid.uuidString.lowercased())
        }
    }

    @Test func refusesWhatFoundationRefuses() {
        var generator = SystemRandomNumberGenerator()
        let replacements: [String] = ["g", "G", "-", " ", "{", "0", "é", "가", "", "00", "\u{0}", "x"]
        for _ in 0..<3000 {
            var scalars = Array(UUID().uuidString.unicodeScalars.map(String.init))
            let position = Int.random(in: 0..<scalars.count, using: &generator)
            scalars[position] = replacements.randomElement(using: &generator) ?? ""
            let text = scalars.joined()
            #expect(UUIDText.parse(text) == (Self.isExact(text) ? UUID(uuidString: text) : nil), "\(text.debugDescription)")
        }
        for text in ["", "not a uuid", String(repeating: "0", count: 36), "{\(UUID().uuidString)}", UUID().uuidString + " "] {
            #expect(UUIDText.parse(text) == (Self.isExact(text) ? UUID(uuidString: text) : nil), "\(text.debugDescription)")
        }
        #expect(UUIDText.parse(" 0F378E9-6353-4FB1-A9F4-6AFBD7261293") == nil)
        #expect(UUIDText.parse("-19E75BF-E526-45F9-BD6D-77494E7DA027") == nil)
    }

    /// Hex digits in groups of 8, 4, 4, 4 and 12 joined by hyphens, nothing else.
    static func isExact(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy { $0.isASCII && $0.isHexDigit } }
    }
}
