import Diary
import Testing

@Suite struct SearchQueryTests {
    @Test(arguments: [
        ("아기", [SearchQuery.Term.syllables("아기")]),
        ("  백일 잔치  ", [.syllables("백일"), .syllables("잔치")]),
        ("3월에 Disney!", [.word("3"), .syllables("월에"), .word("disney")]),
        ("아기🎂🎂", [.syllables("아기"), .symbol("🎂")]),
        ("👍🏽", [.symbol("👍")]),
        ("Café-au-lait", [.word("café"), .word("au"), .word("lait")]),
        ("ㅋㅋ 돌", [.syllables("ㅋㅋ"), .syllables("돌")]),
        ("아기 아기", [.syllables("아기")]),
    ])
    func splitsIntoTerms(text: String, terms: [SearchQuery.Term]) throws {
        #expect(try SearchQuery(text).terms == terms)
    }

    @Test(arguments: ["", "   ", "!?.,", String(repeating: "가", count: 201)])
    func refusesQueriesWithNothingToFind(text: String) {
        #expect(throws: ValidationError.self) { try SearchQuery(text) }
    }

    @Test(arguments: [
        ("아기", "아기가 웃고 아기를 안았다", ["아기", "아기"]),
        ("백일잔치", "…바다의 백일 잔치 준비", ["백일 잔치"]),
        ("돌", "돌잔치에서 돌잡이", ["돌", "돌"]),
        ("beach", "Beaches and a BEACH, not reach", ["Beach", "BEACH"]),
        ("cafe", "Café 라떼", ["Café"]),
        ("🎂 생일", "생일 🎂!", ["생일", "🎂"]),
        ("3월", "13월 3월에", ["월", "3월"]),  // 13 does not start with 3; 월 is found anywhere
    ])
    func highlightsWhatTheIndexMatches(query: String, text: String, marked: [String]) throws {
        let snippet = try SearchQuery(query).highlight(text)
        #expect(snippet.text == text)
        #expect(snippet.parts.filter(\.isMatch).map(\.text) == marked)
    }
}
