import Foundation
import Testing

@testable import WebApp

/// A card's excerpt is the body's first 160 characters, whichever way it is found.
@Suite struct EntryCardTests {
    /// Generated bodies of every length around the limit, of scalars that fuse into fewer characters (combining marks,
    /// joiners, jamo) and of ones that do not: the quick way gives what `prefix(160)` gives.
    @Test func theExcerptIsTheFirst160Characters() {
        let strings = EscapingTests.strings(400)
        for (index, start) in strings.enumerated() {
            var body = start
            for other in strings[index...].prefix(60) {
                body += other
                #expect(EntryCard.excerpt(body) == String(body.prefix(160)), "\(body.debugDescription)")
            }
        }
        let hangul = String(repeating: "가", count: 200)
        #expect(EntryCard.excerpt(hangul) == String(repeating: "가", count: 160))
        let fused = String(repeating: "e\u{0301}", count: 150)  // 300 scalars, 150 characters: whole
        #expect(EntryCard.excerpt(fused) == fused)
    }

    /// A tag in a link's query is encoded byte by byte as Foundation encodes it, over generated hostile text (every
    /// ASCII character, Hangul, marks, emoji, joiners).
    @Test func aTagInAQueryIsEncodedAsFoundationEncodesIt() {
        let allowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&+=#;"))
        let ascii = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        for text in EscapingTests.strings(400) + [ascii, "산책 & 놀이", "a+b=c#d;e", ""] {
            #expect(EntryCard.queryValue(text) == text.addingPercentEncoding(withAllowedCharacters: allowed), "\(text.debugDescription)")
        }
    }
}
