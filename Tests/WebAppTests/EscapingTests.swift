import Diary
import Foundation
import Testing
import Services

@testable import WebApp

/// Escaping works on Unicode scalars (issue 17): generated strings mix every ASCII special with combining marks,
/// prepended marks (U+0600 fused with `<` into one Character that swift-mustache's escaping let through), joiners,
/// Hangul jamo and emoji. Nothing that is markup may come out of text, in Swift-built markup, in every template and
/// in the calendar feed.
@Suite struct EscapingTests {
    static let pieces: [String] = [
        "<", ">", "\"", "'", "&", ";", ",", "\\", "\n", "\r\n", "=", "/", "\u{0301}", "\u{0600}", "\u{0610}", "\u{200D}",
        "\u{FE0F}", "\u{1161}", "\u{20DD}", "e", "가", "👨‍👩‍👧", "<meta http-equiv=refresh content=0;url=//x>", "&amp;", "javascript:",
    ]

    /// Deterministic strings, so a failure can be replayed.
    static func strings(_ count: Int) -> [String] {
        var state: UInt64 = 17
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        return (0..<count).map { _ in (0..<(1 + next(12))).map { _ in pieces[next(pieces.count)] }.joined() }
    }

    static func scalars(_ text: String, _ scalar: Unicode.Scalar) -> Int { text.unicodeScalars.filter { $0 == scalar }.count }

    @Test func htmlEscapeLeavesNoMarkupAndLosesNothing() {
        let entities = ["&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": "\"", "&#39;": "'"]
        for text in Self.strings(2000) {
            let escaped = HTML.escape(text)
            for special in ["<", ">", "\"", "'"] as [Unicode.Scalar] { #expect(Self.scalars(escaped, special) == 0, "\(text.debugDescription)") }
            // Every & starts an entity, and undoing them (by scalar: a Character-wise search would miss `&lt;` before
            // a combining mark) gives the text back, scalar for scalar.
            var restored = String.UnicodeScalarView()
            var rest = Substring(escaped).unicodeScalars
            while let first = rest.first {
                if first == "&" {
                    let entity = entities.first { rest.starts(with: $0.key.unicodeScalars) }
                    #expect(entity != nil, "\(escaped.debugDescription)")
                    guard let entity else { break }
                    restored.append(contentsOf: entity.value.unicodeScalars)
                    rest = rest.dropFirst(entity.key.unicodeScalars.count)
                } else {
                    restored.append(first)
                    rest = rest.dropFirst()
                }
            }
            #expect(Array(restored) == Array(text.unicodeScalars))
        }
    }

    /// `HTMLWriter` writes bytes: its text is `HTML.escape`'s, its markup as given, in the order written.
    @Test func theWriterEscapesAsHTMLEscapeDoes() {
        let texts = Self.strings(2000)
        var writer = HTMLWriter(capacity: 16)
        var expected = ""
        for (index, text) in texts.enumerated() {
            writer.text(text)
            expected += HTML.escape(text)
            let markup = index % 3 == 0 ? "<p class=\"\(index)\">" : texts[(index + 1) % texts.count]
            writer.markup(markup)
            expected += markup
        }
        #expect(writer.html == expected)
    }

    /// Through swift-mustache: a title made of anything adds no `<` or `"` to a page's main part.
    @Test func everyTemplateEscapesByScalar() throws {
        let templates = try TemplateTests.files("Resources/templates", ending: ".mustache").map { String($0.name.dropLast(".mustache".count)) }
        for template in templates {
            let plain = try #require(Templates.library.render(WebPage.common(.korean, title: "x"), withTemplate: template))
            for text in Self.strings(60) {
                let page = try #require(Templates.library.render(WebPage.common(.korean, title: text), withTemplate: template))
                for special in ["<", ">", "\""] as [Unicode.Scalar] {
                    #expect(Self.scalars(page, special) == Self.scalars(plain, special), "\(template): \(text.debugDescription)")
                }
            }
        }
    }

    /// The timeline's cards, written in Swift (`EntryCard.timelineHTML`), escape as the templates do: a card whose
    /// title, text, tags, place and child's name are anything has no more `<`, `>` or `"` than a plain one.
    @Test func timelineCardsEscapeTheirText() throws {
        let child = ChildID()
        func card(_ text: String) throws -> String {
            let valid = { (field: String) in (try? EntryContent(title: field, body: field, date: try .init(iso: "2026-11-22T09:00"), childIDs: [child])) != nil }
            let tags = (try? EntryContent(title: "x", body: "", date: try .init(iso: "2026-11-22T09:00"), childIDs: [child], tags: [text])) != nil ? [text] : ["x"]
            let content = try EntryContent(
                title: valid(text) ? text : "x", body: valid(text) ? text : "x", date: try .init(iso: "2026-11-22T09:00"), childIDs: [child],
                tags: tags, place: (try? Place(name: text, latitude: nil, longitude: nil)) ?? Place(name: "x", latitude: nil, longitude: nil))
            let entry = Entry(familyID: FamilyID(), content: content, photoIDs: [PhotoID()], createdAt: Date(), modifiedAt: Date())
            var card = EntryCard(entry, language: .korean, names: [child: text])
            card.isNew = true
            return card.timelineHTML(Words.table(.korean))
        }
        let plain = try card("x")
        for text in Self.strings(500) {
            let page = try card(text)
            for special in ["<", ">", "\""] as [Unicode.Scalar] {
                #expect(Self.scalars(page, special) == Self.scalars(plain, special), "\(text.debugDescription)")
            }
        }
        #expect(try card("a&b").contains("href=\"/timeline?tag=a%26b\""))
    }

    /// The month grid's cells, written in Swift (`DayCell.html`), likewise.
    @Test func calendarCellsEscapeTheirText() {
        func cell(_ text: String) -> String {
            CalendarPages.DayCell(
                iso: "2026-11-22", day: 22, caption: text, isTerm: true, classes: "red", holidays: [text], label: text, entryCount: 2,
                photo: "/api/v1/photos/x/thumbnail", videoBadge: text, marks: [text, text]
            ).html(Words.table(.korean))
        }
        let plain = cell("x")
        for text in Self.strings(500) {
            let page = cell(text)
            for special in ["<", ">", "\""] as [Unicode.Scalar] {
                #expect(Self.scalars(page, special) == Self.scalars(plain, special), "\(text.debugDescription)")
            }
        }
    }

    @Test func theLayoutOfAPageEscapesItsData() throws {
        let title = "\u{0600}<meta http-equiv=refresh content=0;url=//evil\u{0600}>"
        let page = PageLayout(language: .korean, title: title).html(main: HTMLWriter(markup: "")).html
        #expect(!page.contains("<meta http-equiv=refresh"))
        #expect(page.contains("&lt;meta http-equiv=refresh"))
    }

    /// The layout, written in Swift (`PageLayout`), escapes the title, the search box's text, the notice and the ids it
    /// writes as the template did: a page whose every piece of text is anything has no more `<`, `>` or `"`.
    @Test func theLayoutEscapesByScalar() {
        func page(_ text: String) -> String {
            PageLayout(
                language: .korean, title: text, tab: .timeline,
                reader: .init(userID: text, isMember: true, canEdit: true, csrf: text), notice: PageNotice(text: text, undo: text),
                searchText: text
            ).html(main: HTMLWriter(markup: "<p>main</p>")).html
        }
        let plain = page("x")
        #expect(plain.contains("<title>x · 새싹</title>") && plain.contains("<p>main</p>") && plain.contains("aria-current=\"page\""))
        for text in Self.strings(500) {
            let escaped = page(text)
            for special in ["<", ">", "\""] as [Unicode.Scalar] {
                #expect(Self.scalars(escaped, special) == Self.scalars(plain, special), "\(text.debugDescription)")
            }
        }
    }

    /// The timeline's and the month's main parts, written in Swift, likewise (a search hit's passage is markup made
    /// by `SearchHitResource` and is not text here).
    @Test func theTimelineAndTheMonthEscapeTheirText() {
        func timeline(_ text: String, searching: Bool) -> String {
            var page = EntryPages.TimelinePage(
                childOptions: [Option(value: text, name: text, selected: true)], year: text, month: text, filtered: true, canEdit: true)
            page.tagOptions = [Option(value: text, name: text)]
            page.shown =
                searching
                ? .hits([.init(href: text, title: text, snippet: "<mark>x</mark>", isMemo: true)], for: text) : .entries([(month: text, cards: HTMLWriter(markup: "<li></li>"))])
            page.next = text
            return page.html(Words.table(.korean)).html
        }
        func month(_ text: String) -> String {
            CalendarPages.MonthPage(
                title: text, weekdays: Array(repeating: text, count: 7), weeks: [HTMLWriter(markup: "<td></td>")], previousMonth: text, nextMonth: text,
                previousYear: text, nextYear: text, monthValue: text, thisMonth: text
            ).html(Words.table(.korean)).html
        }
        let plain = [timeline("x", searching: false), timeline("x", searching: true), month("x")]
        for text in Self.strings(300) {
            for (made, before) in zip([timeline(text, searching: false), timeline(text, searching: true), month(text)], plain) {
                for special in ["<", ">", "\""] as [Unicode.Scalar] {
                    #expect(Self.scalars(made, special) == Self.scalars(before, special), "\(text.debugDescription)")
                }
            }
        }
    }

    @Test func calendarTextEscapesByScalar() {
        for text in Self.strings(2000) {
            let escaped = ICalendar.escape(text)
            #expect(!escaped.unicodeScalars.contains("\n") && !escaped.unicodeScalars.contains("\r"))
            // Every ; and , is preceded by a backslash that is not itself escaped.
            let scalars = Array(escaped.unicodeScalars)
            var index = 0
            while index < scalars.count {
                if scalars[index] == "\\" { index += 2; continue }
                #expect(scalars[index] != ";" && scalars[index] != ",", "\(text.debugDescription)")
                index += 1
            }
        }
    }
}
