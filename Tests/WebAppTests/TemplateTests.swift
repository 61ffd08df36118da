import Diary
import Foundation
import KoreanCalendar
import Services
import Testing

@testable import WebApp

/// The page templates and their words: every template parses, and every word a template or page asks for is in
/// `Words` (so no page shows an empty label in either language).
@Suite struct TemplateTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/WebApp")

    static func files(_ folder: String, ending: String) throws -> [(name: String, text: String)] {
        let url = sources.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(ending) }.sorted().map {
            ($0, try String(contentsOf: url.appendingPathComponent($0), encoding: .utf8))
        }
    }

    static func matches(_ pattern: String, in text: String) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    @Test func everyTemplateIsLoadedAndRenders() throws {
        let templates = try Self.files("Resources/templates", ending: ".mustache")
        #expect(templates.count > 15)
        for (name, _) in templates {
            let base = String(name.dropLast(".mustache".count))
            let html = try #require(Templates.library.render(WebPage.common(.korean, title: "제목"), withTemplate: base), "\(base)")
            // The layout is `PageLayout`'s, around a page's main part: no template may start a document of its own.
            #expect(!html.contains("<html") && !html.contains("<body"), "\(base) has a layout of its own")
        }
    }

    @Test func everyWordUsedIsInBothLanguages() throws {
        var used: Set<String> = []
        for (_, text) in try Self.files("Resources/templates", ending: ".mustache") {
            used.formUnion(try Self.matches(#"\{\{[#^/]?t\.([A-Za-z_]+)\}\}"#, in: text))
        }
        for (_, text) in try Self.files("Web", ending: ".swift") {
            used.formUnion(try Self.matches(#"\("(new[A-Za-z]+Once)""#, in: text))
        }
        // Words named at run time: a kind, a role, an import's source.
        used.formUnion(GrowthMeasurement.Kind.allCases.map { "growth_\($0.rawValue)" })
        used.formUnion(EventDetails.Kind.allCases.map { "event_\($0.rawValue)" })
        used.formUnion(Role.allCases.map { "role_\($0.rawValue)" })
        used.formUnion(ImportPages.Kind.allCases.map { "import_\($0.rawValue)" })
        used.formUnion(["children", "entries", "events", "anniversaries", "photos", "measurements"].map { "importKind_\($0)" })
        #expect(used.count > 100)
        used.formUnion(DigestFrequency.allCases.map { "digest_\($0.rawValue)" })
        used.formUnion(TrashKind.allCases.map { "trashKind_\($0.rawValue)" })
        used.formUnion(ActivityKind.allCases.map { "kind_\($0.rawValue)" })
        used.formUnion(ActivityAction.allCases.map { "action_\($0.rawValue)" })
        for key in used.sorted() {
            #expect(
                Word(rawValue: key) != nil || MailWord(rawValue: key) != nil || TrashWord(rawValue: key) != nil
                    || ActivityWord(rawValue: key) != nil || BookWord(rawValue: key) != nil
                    || SignInWord(rawValue: key) != nil || ImportWord(rawValue: key) != nil, "\(key) is not a word")
        }
        // One table of names for the templates: no name in two of the word lists (the table would refuse to build).
        let lists = [
            Set(Word.allCases.map(\.rawValue)), Set(MailWord.allCases.map(\.rawValue)), Set(TrashWord.allCases.map(\.rawValue)),
            Set(ActivityWord.allCases.map(\.rawValue)), Set(BookWord.allCases.map(\.rawValue)),
            Set(SignInWord.allCases.map(\.rawValue)), Set(ImportWord.allCases.map(\.rawValue)),
        ]
        for (index, list) in lists.enumerated() {
            for other in lists[(index + 1)...] { #expect(list.isDisjoint(with: other), "\(list.intersection(other))") }
        }
        for word in ActivityWord.allCases {
            #expect(!word.text(.korean).isEmpty && !word.text(.english).isEmpty, "\(word) lacks a language")
            #expect(word.text(.korean).components(separatedBy: "%@").count == word.text(.english).components(separatedBy: "%@").count, "\(word)")
        }
        for word in ImportWord.allCases {
            #expect(!word.text(.korean).isEmpty && !word.text(.english).isEmpty, "\(word) lacks a language")
            #expect(word.text(.korean).components(separatedBy: "%@").count == word.text(.english).components(separatedBy: "%@").count, "\(word)")
        }
        for word in SignInWord.allCases {
            #expect(!word.text(.korean).isEmpty && !word.text(.english).isEmpty, "\(word) lacks a language")
            #expect(word.text(.korean).components(separatedBy: "%@").count == word.text(.english).components(separatedBy: "%@").count, "\(word)")
        }
        for word in BookWord.allCases {
            #expect(!word.text(.korean).isEmpty && !word.text(.english).isEmpty, "\(word) lacks a language")
            #expect(word.text(.korean).components(separatedBy: "%@").count == word.text(.english).components(separatedBy: "%@").count, "\(word)")
        }
        for word in TrashWord.allCases {
            #expect(!word.text(.korean).isEmpty && !word.text(.english).isEmpty, "\(word) lacks a language")
            #expect(word.text(.korean).components(separatedBy: "%@").count == word.text(.english).components(separatedBy: "%@").count, "\(word)")
        }
        for word in MailWord.allCases {
            #expect(!word.text(.korean).isEmpty && !word.text(.english).isEmpty, "\(word) lacks a language")
            #expect(word.text(.korean).components(separatedBy: "%@").count == word.text(.english).components(separatedBy: "%@").count, "\(word)")
        }
        for word in Word.allCases {
            #expect(!word.text(.korean).isEmpty, "\(word) has no Korean")
            #expect(!word.text(.english).isEmpty, "\(word) has no English")
        }
    }

    @Test func datesReadTheKoreanWay() throws {
        let day = try SolarDate(iso: "2026-11-22")
        #expect(Language.korean.longDate(day) == "2026년 11월 22일 일요일")
        #expect(Language.english.longDate(day) == "Sunday, 22 November 2026")
        #expect(Language.korean.monthTitle(year: 2026, month: 11) == "2026년 11월")
        #expect(Language.korean.time(try .init(hour: 15, minute: 5)) == "오후 3:05")
        #expect(Language.english.time(try .init(hour: 0, minute: 30)) == "12:30 am")
        #expect(Language.korean.lunarDate(try .init(year: 2025, month: 6, day: 4, isLeapMonth: true)) == "음력 윤6월 4일")
    }
}
