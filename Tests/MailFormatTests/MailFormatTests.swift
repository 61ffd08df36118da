import Foundation
import Testing

@testable import MailFormat

@Suite struct MailAddressTests {
    @Test func plainAddressesAreKeptWithTheDomainLowerCased() throws {
        #expect(try MailAddress("  halmeoni@Example.COM ").value == "halmeoni@example.com")
        #expect(try MailAddress("mom.kim+diary@mail.example.kr").value == "mom.kim+diary@mail.example.kr")
    }

    @Test(arguments: [
        ("", MailAddress.Problem.empty), ("no-at.example", .notOneAt), ("a@b@c.kr", .notOneAt), (".a@b.kr", .badLocalPart),
        ("a..b@b.kr", .badLocalPart), ("a b@b.kr", .badLocalPart), ("a@localhost", .badDomain), ("a@-x.kr", .badDomain),
        ("a@b..kr", .badDomain), ("할머니@b.kr", .notASCII), ("a@b.kr\r\nBcc: x", .badDomain), ("a@b.kr>", .badDomain), ("a@b.kr>,<c@d.kr", .notOneAt),
    ])
    func anythingElseIsNamed(text: String, problem: MailAddress.Problem) {
        #expect(throws: problem) { try MailAddress(text) }
    }
}

@Suite struct SMTPReplyTests {
    @Test func readsOneAndMultiLineRepliesAcrossPieces() throws {
        var reader = SMTPReplyReader()
        try reader.append(Array("220 mail.example ESMTP\r\n250-mail.example\r\n250-STARTTLS\r\n250-AUTH PLAIN LOGIN\r".utf8))
        #expect(try reader.next() == SMTPReply(code: 220, lines: ["mail.example ESMTP"]))
        #expect(try reader.next() == nil)
        try reader.append(Array("\n250 SIZE 1000\n".utf8))
        let hello = try #require(try reader.next())
        #expect(hello.code == 250 && hello.extensions["STARTTLS"] == [] && hello.extensions["AUTH"] == ["PLAIN", "LOGIN"])
        #expect(hello.extensions["SIZE"] == ["1000"])
    }

    @Test(arguments: ["hello\r\n", "25\r\n", "250x\r\n", "999 no\r\n", "250-a\r\n251 b\r\n"])
    func garbageIsRefused(text: String) {
        var reader = SMTPReplyReader()
        #expect(throws: SMTPReplyError.self) {
            try reader.append(Array(text.utf8))
            while try reader.next() != nil {}
        }
    }

    @Test func endlessLinesAndRepliesAreRefused() throws {
        var reader = SMTPReplyReader()
        #expect(throws: SMTPReplyError.lineTooLong) {
            try reader.append(Array(repeating: UInt8(ascii: "2"), count: SMTPReplyReader.maximumLineLength + 1))
            _ = try reader.next()
        }
        var many = SMTPReplyReader()
        #expect(throws: SMTPReplyError.tooManyLines) {
            try many.append(Array(String(repeating: "250-x\r\n", count: SMTPReplyReader.maximumLines + 1).utf8))
            _ = try many.next()
        }
    }

    @Test func dataIsDotStuffedAndEnded() {
        let stuffed = SMTPData.stuffed(Array(".a\r\nb\n..c".utf8))
        #expect(String(decoding: stuffed, as: UTF8.self) == "..a\r\nb\r\n...c\r\n.\r\n")
    }
}

@Suite struct MailMessageTests {
    private func decodeWords(_ header: String) -> String {
        header.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "?=").compactMap { part -> String? in
            guard let start = part.range(of: "=?UTF-8?B?") else { return part.isEmpty ? nil : part }
            return Data(base64Encoded: String(part[start.upperBound...])).map { String(decoding: $0, as: UTF8.self) }
        }.joined()
    }

    @Test func koreanSubjectsAreEncodedWordsOfWholeCharacters() {
        let subject = "새싹 소식: 할머니, 하늘이가 오늘 처음으로 뒤집기를 했어요! 👶🏻 사진 12장과 일기 3개"
        let encoded = MailMessage.encodedWords(subject, reserved: 9)
        #expect(encoded.components(separatedBy: "\r\n ").allSatisfy { $0.count <= 75 && $0.hasPrefix("=?UTF-8?B?") })
        #expect(decodeWords(encoded) == subject)
        #expect(MailMessage.encodedWords("Hello", reserved: 9) == "Hello")
        #expect(!MailMessage.encodedWords("a\r\nBcc: x", reserved: 0).contains("\r\n"))
    }

    @Test func aMessageHasItsPartsAndShortLines() throws {
        let to = MailMessage.Person(name: "할머니", address: try MailAddress("g@example.kr"))
        let from = MailMessage.Person(name: "새싹", address: try MailAddress("diary@example.kr"))
        let message = MailMessage(
            from: from, to: to, subject: "새 소식", date: Date(timeIntervalSince1970: 1_795_503_600), messageID: "m1@example.kr",
            text: "안녕하세요", html: "<p>안녕하세요 <img src=\"cid:p1@saessak\"></p>",
            images: [.init(contentID: "p1@saessak", mediaType: "image/jpeg", filename: "p1.jpg", bytes: Data(repeating: 7, count: 500))],
            extraHeaders: [("List-Unsubscribe", "<https://x.example/u>"), ("X-Bad", "a\r\nBcc: b@c.kr")])
        let text = String(decoding: message.rendered(boundary: "B"), as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 78 })
        #expect(!text.contains("Bcc"))
        #expect(text.contains("Date: Tue, 24 Nov 2026 07:00:00 +0000\r\n"))
        #expect(text.contains("Content-Type: multipart/related; type=\"multipart/alternative\"; boundary=\"B\""))
        #expect(text.contains("Content-ID: <p1@saessak>"))
        #expect(text.hasSuffix("--B--\r\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    }
}
