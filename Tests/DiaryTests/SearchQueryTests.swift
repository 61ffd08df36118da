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

    /// Characters are compared by their scalars where that is the same as `Character`'s `==` (canonical equivalence),
    /// and by `==` elsewhere: a syllable written in its letters, a letter and its accent, a sign that is a letter, are
    /// still found, and marked as the same text written whole is.
    @Test func marksTheSameWhicheverWayTheTextIsSpelled() throws {
        // One character each, written two ways that are canonically the same.
        let pieces: [(String, String)] = [
            ("가", "\u{1100}\u{1161}"), ("각", "\u{1100}\u{1161}\u{11A8}"), ("각", "가\u{11A8}"), ("기", "\u{1100}\u{1175}"),
            ("아", "\u{110B}\u{1161}"), ("é", "e\u{301}"), ("K", "\u{212A}"), ("\u{8C48}", "\u{F900}"), (" ", " "), ("\t", "\t"),
            ("a", "a"), ("🎂", "🎂"), ("👍🏽", "👍🏽"), ("ㅋ", "ㅋ"), ("\r\n", "\r\n"), ("e", "e"),
        ]
        let queries = try ["가", "아기", "각", "가각", "기 가", "ㅋ", "\u{8C48}", "🎂 아"].map(SearchQuery.init)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let chosen = (0..<Int.random(in: 0...24, using: &generator)).map { _ in pieces[Int.random(in: pieces.indices, using: &generator)] }
            let whole = chosen.map(\.0).joined()
            let spelled = chosen.map { Bool.random(using: &generator) ? $0.1 : $0.0 }.joined()
            for query in queries {
                func marks(_ text: String) -> [Bool] {
                    query.highlight(text).parts.flatMap { Array(repeating: $0.isMatch, count: $0.text.count) }
                }
                let (found, foundSpelled) = (query.find(in: whole), query.find(in: spelled))
                #expect(marks(spelled) == marks(whole), "\(query.text) in \(spelled.unicodeScalars.map { String($0.value, radix: 16) })")
                #expect(foundSpelled.runs == found.runs && foundSpelled.first == found.first && foundSpelled.unitStarts == found.unitStarts)
            }
        }
    }
}
