import Foundation
import Testing

@testable import Importers

/// Decoding old text diaries: byte-order marks, valid UTF-8, and CP949 strictly (never a replacement character).
@Suite struct TextImportTests {
    @Test func autoDetectsTheEncoding() throws {
        let text = "2011.3.1\n똠방각하"
        #expect(try TextImport.decode(Data(text.utf8), as: .auto, file: "a.txt") == text)
        #expect(try TextImport.decode(Data([0xEF, 0xBB, 0xBF] + Array(text.utf8)), as: .auto, file: "a.txt") == text)
        #expect(try TextImport.decode(text.data(using: .utf16LittleEndian).map { Data([0xFF, 0xFE]) + $0 }!, as: .auto, file: "a.txt") == text)
        #expect(try TextImport.decode(text.data(using: .utf16BigEndian).map { Data([0xFE, 0xFF]) + $0 }!, as: .auto, file: "a.txt") == text)
        // 똠 is 8C 63 in CP949 (not in EUC-KR's KS X 1001 table).
        let cp949 = Data(Array("2011.3.1\n".utf8) + [0x8C, 0x63, 0xB9, 0xE6])
        #expect(try TextImport.decode(cp949, as: .auto, file: "a.txt") == "2011.3.1\n똠방")
    }

    @Test func cp949IsDecodedStrictly() {
        #expect(throws: TextImport.Failure("b.txt: byte 3 is not CP949/EUC-KR text (try --encoding)")) {
            try TextImport.decode(Data([0x41, 0x42, 0x43, 0xFF, 0xFF]), as: .cp949, file: "b.txt")
        }
        #expect(throws: TextImport.Failure("c.txt: not valid UTF-8")) {
            try TextImport.decode(Data([0x41, 0xC3]), as: .utf8, file: "c.txt")
        }
    }
}
