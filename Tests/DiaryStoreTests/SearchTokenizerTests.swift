import Diary
import Foundation
import GRDB
import Persistence
import Testing

@testable import DiaryStore

/// Saessak's FTS5 tokenizer, and `SearchTokens`, which hands its tokens to an engine with a token table of its own.
/// (What search finds and how it ranks, on both engines: Tests/StoreTests/SearchStoreTests.swift.)
@Suite struct SearchTokenizerTests {
    /// The tokenizer itself: every syllable at its position, with the pair it starts at the same position; syllables
    /// apart only by spaces pair up; words and emoji are their own tokens.
    @Test func tokenizerEmitsSyllablesPairsWordsAndEmoji() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-tokens-\(UUID().uuidString)")
        let database = try DiaryDatabase(folder: folder)
        let tokens = try await database.writer.write { db in
            try db.execute(sql: """
                CREATE VIRTUAL TABLE temp.sample USING fts5(text, tokenize = 'saessak');
                CREATE VIRTUAL TABLE temp.sampleTokens USING fts5vocab(temp, sample, instance);
                INSERT INTO sample (text) VALUES ('백일 잔치를, Café 3월🎂');
                """)
            return try Row.fetchAll(db, sql: "SELECT term, offset FROM sampleTokens ORDER BY offset, length(term), term")
                .map { "\($0["offset"] as Int):\($0["term"] as String)" }
        }
        #expect(tokens == [
            "0:백", "0:백일", "1:일", "1:일잔", "2:잔", "2:잔치", "3:치", "3:치를", "4:를",
            "5:cafe", "6:3", "7:월", "8:🎂",
        ])
    }

    /// The same tokens, by column, with every position: what PostgreSQL's `searchTokens` holds.
    @Test func searchTokensAreTheIndexsTokensWithTheirPositions() throws {
        let tokens = try SearchTokens.document(["백일 잔치", "", "Café", "🎂 백일"])
        let described = tokens.map { "\($0.column):\($0.text)@\($0.positions.map(String.init).joined(separator: ","))" }
        #expect(Set(described) == Set([
            "0:백@0", "0:백일@0", "0:일@1", "0:일잔@1", "0:잔@2", "0:잔치@2", "0:치@3", "2:cafe@0", "3:🎂@0", "3:백@1",
            "3:백일@1", "3:일@2",
        ]))
        #expect(try SearchTokens.phrase(.syllables("백일잔치")) == SearchTokens.Phrase(tokens: ["백일", "일잔", "잔치"], prefix: false))
        #expect(try SearchTokens.phrase(.syllables("돌")) == SearchTokens.Phrase(tokens: ["돌"], prefix: false))
        #expect(try SearchTokens.phrase(.word("café")) == SearchTokens.Phrase(tokens: ["cafe"], prefix: true))
        #expect(try SearchTokens.phrase(.symbol("🎂")) == SearchTokens.Phrase(tokens: ["🎂"], prefix: false))
    }

    /// `SearchTokens` tokenizes without an index; whatever it is given, its tokens and positions are exactly those of
    /// a real FTS5 index's vocabulary (the oracle), over texts drawn from Hangul, Latin with accents, digits, emoji,
    /// Han, punctuation and blanks.
    @Test func searchTokensMatchAnFTS5IndexOverGeneratedTexts() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-tokens-\(UUID().uuidString)")
        let database = try DiaryDatabase(folder: folder)
        let pieces = ["백일", "잔치", "를", "아기가", " ", "  ", "\t", ",", ".", "Café", "ÉCOLE", "naïve", "3월", "2026", "🎂", "👶🏻", "漢字",
            "ㄱㄴ", "!", "o'clock", "e-mail", "\n", "한", "x"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            let expected = try await database.writer.write { db -> Set<String> in
                try db.execute(sql: """
                    CREATE VIRTUAL TABLE IF NOT EXISTS temp.oracle USING fts5(text, tokenize = 'saessak');
                    CREATE VIRTUAL TABLE IF NOT EXISTS temp.oracleTokens USING fts5vocab(temp, oracle, instance);
                    DELETE FROM oracle;
                    """)
                try db.execute(sql: "INSERT INTO oracle (rowid, text) VALUES (1, ?)", arguments: [text])
                return Set(try Row.fetchAll(db, sql: "SELECT term, offset FROM oracleTokens").map { "\($0["term"] as String)@\($0["offset"] as Int)" })
            }
            let tokens = try SearchTokens.document([text])
            let actual = Set(tokens.flatMap { token in token.positions.map { "\(token.text)@\($0)" } })
            #expect(actual == expected, "\(text)")
        }
    }
}
