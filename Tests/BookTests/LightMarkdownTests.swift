import Foundation
import Testing

@testable import Book

/// An entry's light Markdown as the book sets it, and the markup Pango is given.
@Suite struct LightMarkdownTests {
    @Test func paragraphsListsAndHeadings() {
        let blocks = LightMarkdown.blocks("# 오늘\n첫 줄\n둘째 줄\n\n- 우유\n* 기저귀\n2. 병원\n12) 약국\n\n끝")
        #expect(blocks == [
            .heading([.text("오늘")]),
            .paragraph([.text("첫 줄\n둘째 줄")]),
            .item(marker: "•", [.text("우유")]),
            .item(marker: "•", [.text("기저귀")]),
            .item(marker: "2.", [.text("병원")]),
            .item(marker: "12.", [.text("약국")]),
            .paragraph([.text("끝")]),
        ])
    }

    @Test func emphasisOpensAndClosesOnlyWhereMarkdownWould() {
        #expect(LightMarkdown.inlines("**새싹**이 *조금* 컸다") == [.strong([.text("새싹")]), .text("이 "), .emphasis([.text("조금")]), .text(" 컸다")])
        #expect(LightMarkdown.inlines("2*3*4 and snake_case_name") == [.text("2*3*4 and snake_case_name")])
        #expect(LightMarkdown.inlines("a ** b ** c, * d *") == [.text("a ** b ** c, * d *")])
        #expect(LightMarkdown.inlines("**굵게 *기울여* 굵게**") == [.strong([.text("굵게 "), .emphasis([.text("기울여")]), .text(" 굵게")])])
        #expect(LightMarkdown.inlines("*열림만") == [.text("*열림만")])
    }

    @Test func unclosedMarkersCostLinearTime() {
        // 100,000 characters of openers that never close: bounded spans, no deep recursion.
        let body = String(repeating: "*a _b **c ", count: 10_000)
        let started = ContinuousClock.now
        let inlines = LightMarkdown.inlines(body)
        #expect(ContinuousClock.now - started < .seconds(20))
        #expect(inlines.count >= 1)
    }

    @Test func markupIsEscapedAndKeepsKoreanWordsWhole() {
        #expect(escape("<b>&'\"\u{1}\n") == "&lt;b&gt;&amp;&#39;&quot;\n")
        #expect(keepingWords("아기가 웃었다 ok") == "<span allow_breaks=\"false\">아기가</span> <span allow_breaks=\"false\">웃었다</span> ok")
        // A Hangul run longer than a third of a line may break, so that nothing runs past the margin.
        let long = String(repeating: "가", count: 13)
        #expect(keepingWords(long) == long)
        #expect(markup([.strong([.text("<새싹>")])]) == "<b><span allow_breaks=\"false\">&lt;새싹&gt;</span></b>")
    }

    @Test func numbersAreGrouped() {
        #expect(2000.grouped == "2,000" && 999.grouped == "999" && 1_234_567.grouped == "1,234,567" && (-1500).grouped == "-1,500")
    }
}

/// Pango lays out Korean between 어절 with the embedded Noto CJK fonts, and every glyph is found.
@Suite struct TypesettingTests {
    @Test func koreanBreaksBetweenWordsAndEveryGlyphIsThere() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-typesetting-\(UUID()).pdf").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let document = try PrintDocument(path: path, width: 420, height: 595)
        let font = Fonts(size: .a5).body
        let sentence = String(repeating: "할머니께서 백설기를 보내주셨다 家族 Grandma ", count: 8)
        let text = try #require(document.text(keepingWords(sentence), font: font, width: 200))
        #expect(text.lineCount > 3)
        #expect(text.unknownGlyphs == 0)
        let plain = try #require(document.text(escape(sentence), font: font, width: 200))
        // Kept whole, the words need at least as many lines as when a line may break between any two syllables.
        #expect(text.lineCount >= plain.lineCount)
        #expect(text.height(of: 0..<text.lineCount) > 0 && abs(text.height(of: 0..<text.lineCount) - text.height) < 0.01)
        text.draw(x: 40, y: 40, .ink)
        try document.check()
        try document.close()
        let written = try #require(FileManager.default.contents(atPath: path))
        #expect(written.starts(with: Data("%PDF-".utf8)))
    }

    @Test func pageGeometryAddsBleedAroundTheTrimmedPage() {
        let plain = PageGeometry(size: .a5, bleed: false)
        let bled = PageGeometry(size: .a5, bleed: true)
        #expect(abs(plain.width - 148 / 25.4 * 72) < 0.001 && abs(plain.height - 210 / 25.4 * 72) < 0.001)
        #expect(abs(bled.width - plain.width - 2 * 3 / 25.4 * 72) < 0.001 && bled.trim.width == plain.trim.width)
        #expect(bled.content.x - plain.content.x > 8)
    }

    @Test func asHTMLForTheArchiveEverythingTypedIsText() {
        let html = LightMarkdown.html("# 오늘 <b>\n첫 줄\n둘째 줄 & \"따옴표\"\n\n- 우유\n- **기저귀**\n2. 병원\n\n<script>alert(1)</script>\u{7}")
        #expect(html == """
            <h3>오늘 &lt;b&gt;</h3>
            <p>첫 줄<br>
            둘째 줄 &amp; &quot;따옴표&quot;</p>
            <ul>
            <li>우유</li>
            <li><strong>기저귀</strong></li>
            </ul>
            <ol>
            <li value="2">병원</li>
            </ol>
            <p>&lt;script&gt;alert(1)&lt;/script&gt;</p>

            """)
    }
}
