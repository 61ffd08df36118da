import Foundation
import Testing

@testable import Multipart

/// tus 1.0's upload headers, as anyone may send them.
@Suite struct UploadHeadersTests {
    @Test func byteCountsAreDigitsOnlyWithinInt() {
        #expect(UploadHeaders.byteCount("0") == 0)
        #expect(UploadHeaders.byteCount("1073741824") == 1_073_741_824)
        #expect(UploadHeaders.byteCount("9223372036854775807") == Int.max)
        for bad in ["", "-1", "+1", " 1", "1 ", "1e3", "0x10", "9223372036854775808", "99999999999999999999", "１２"] {
            #expect(UploadHeaders.byteCount(bad) == nil, "\(bad)")
        }
    }

    @Test func metadataIsKeysWithBase64Values() throws {
        let pairs = try UploadHeaders.metadata("filename 7IKs7KeELmpwZw==,filetype aW1hZ2UvanBlZw==, is_confidential")
        #expect(String(data: try #require(pairs["filename"]), encoding: .utf8) == "사진.jpg")
        #expect(pairs["is_confidential"] == Data())
        for bad in ["filename ***", "filename a b", ",", "filename YQ==,filename Yg==", "파일 YQ=="] {
            #expect(throws: UploadHeaderError.malformedMetadata, "\(bad)") { try UploadHeaders.metadata(bad) }
        }
    }

    @Test func aFileNameIsItsLastPathComponentOnly() throws {
        func name(_ text: String) throws -> String? { try UploadHeaders.fileName("filename \(Data(text.utf8).base64EncodedString())") }
        #expect(try name("IMG_0001.HEIC") == "IMG_0001.HEIC")
        #expect(try name("../../etc/passwd") == "passwd")
        #expect(try name("/photos/돌잔치.jpg") == "돌잔치.jpg")
        #expect(try UploadHeaders.fileName("filetype aW1hZ2UvanBlZw==") == nil)
        for bad in ["", "/", "..", "a\nb", "a\u{0}b", String(repeating: "가", count: 86)] {
            #expect(throws: UploadHeaderError.badFileName, "\(bad)") { try name(bad) }
        }
        #expect(throws: UploadHeaderError.badFileName) { try UploadHeaders.fileName("filename " + Data([0xFF, 0xFE]).base64EncodedString()) }
    }
}
