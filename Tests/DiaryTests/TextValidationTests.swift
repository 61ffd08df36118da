import KoreanCalendar
import Testing

@testable import Diary

/// Issue 33: one check for every text — no NUL, limits in Unicode scalars, no pile of combining marks.
@Suite struct TextValidationTests {
    let child = ChildID()
    let noon = try! LocalDateTime(iso: "2026-11-22T12:00")

    @Test func aNULInABodyIsRefusedNotCut() {
        #expect(throws: ValidationError(field: "body", .containsNUL)) {
            try EntryContent(title: "첫 걸음", body: "앞\u{0}뒤", date: noon, childIDs: [child])
        }
        #expect(throws: ValidationError(field: "body", .containsNUL)) { try MemoContent(title: "메모", body: "a\u{0}") }
        #expect(throws: ValidationError(field: "tags", .containsNUL)) {
            try EntryContent(title: "t", body: "", date: noon, childIDs: [child], tags: ["a\u{0}b"])
        }
    }

    @Test func limitsCountScalarsNotGraphemeClusters() {
        let accented = "a" + String(repeating: "\u{301}", count: 150_000)
        #expect(accented.count == 1)
        #expect(throws: ValidationError.self) { try EntryContent(title: accented, body: "", date: noon, childIDs: [child]) }
        let long = String(repeating: "e\u{301}", count: 100) + "e"  // 101 characters, 201 scalars
        #expect(throws: ValidationError(field: "title", .tooLong(maximum: EntryContent.maxTitleLength, got: 201))) {
            try Validate.text(long, field: "title", maxLength: EntryContent.maxTitleLength)
        }
    }

    /// The shortcut through printable ASCII and what comes after U+3000 answers as Unicode's own table, for every scalar.
    @Test func whiteSpaceIsUnicodesWhiteSpace() {
        let differing = (0...0x10FFFF).compactMap(Unicode.Scalar.init).filter { $0.isUnicodeWhitespace != $0.properties.isWhitespace }
        #expect(differing.isEmpty, "\(differing.prefix(10).map { String($0.value, radix: 16) })")
        #expect("\u{3000}제목\u{A0} ".trimmingWhitespace() == "제목")
    }

    /// Tags are told apart as `lowercased()` tells them; the shortcut past it for ASCII and Hangul changes nothing.
    @Test func tagsFoldAsLowercasedDoes() {
        let scalars = (0...0xD7FF).compactMap(Unicode.Scalar.init)
        let differing = scalars.filter { Tag.folded(String($0)) != String($0).lowercased() }
        #expect(differing.isEmpty, "\(differing.prefix(10).map { String($0.value, radix: 16) })")
        var generator = SystemRandomNumberGenerator()
        let pieces = ["가", "힣", "a", "Z", "É", "ß", "İ", "1", " ", "ǅ", "Σ", "ㄱ"]
        for _ in 0..<2000 {
            let name = (0..<Int.random(in: 1...6, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            #expect(Tag.folded(name) == name.lowercased(), "\(name.debugDescription)")
        }
    }

    @Test func combiningMarksAreCapped() throws {
        let thirty = "e" + String(repeating: "\u{301}", count: 30)
        #expect(try Validate.text(thirty, field: "f", maxLength: 100) == thirty)
        #expect(throws: ValidationError(field: "f", .tooManyMarks(maximum: 30))) {
            try Validate.text(thirty + "\u{301}", field: "f", maxLength: 100)
        }
    }

    /// What people write passes as it is: Hangul (precomposed and as jamo), emoji with modifiers and joiners,
    /// keycaps, flags, Devanagari and Thai marks, right-to-left text, control characters other than NUL.
    @Test(arguments: [
        "하늘이의 첫 걸음", "\u{1112}\u{1161}\u{11AB}", "👨‍👩‍👧‍👦 👍🏽 1️⃣ 🇰🇷", "नमस्ते", "สวัสดีครับ", "שלום \u{200F}עולם",
        "줄\n바꿈\r\n탭\t종\u{7}", "\u{FEFF}zero width no-break",
    ])
    func whatPeopleWriteIsKept(_ text: String) throws {
        #expect(try Validate.text(text, field: "f", maxLength: 200) == text)
        #expect(try EntryContent(title: "t", body: text, date: noon, childIDs: [child]).body == text)
    }
}
