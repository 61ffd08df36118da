import Testing

@testable import Diary

/// Issue 33: names that pass for other names (UTS #39 on Unicode's own data).
@Suite struct LookAlikeTests {
    @Test(arguments: [("mоm", "mom"), ("ⅿom", "mom"), ("pаypаl", "paypal"), ("MOM", "mom"), ("ℌello", "Hello"), ("ｍｏｍ", "mom")])
    func lookAlikesShareASkeleton(_ one: String, _ other: String) {
        #expect(LookAlikes.caselessSkeleton(one) == LookAlikes.caselessSkeleton(other))
    }

    @Test func aLookAlikeOfAnotherUserIsFoundButNotTheSameName() {
        #expect(LookAlikes.looksLikeAnother("mоm", among: ["dad", "mom"]))
        #expect(!LookAlikes.looksLikeAnother("Mom", among: ["mom"]))
        #expect(!LookAlikes.looksLikeAnother("엄마", among: ["mom", "아빠"]))
    }

    @Test(arguments: ["mom\u{3164}", "mo\u{200B}m", "\u{202E}mom", "mom\u{115F}", "m\u{FE0F}om", "mom\u{E000}"])
    func invisibleCharactersInAUsernameAreRefused(_ name: String) {
        #expect(throws: ValidationError.self) { try User.validUsername(name) }
    }

    @Test(arguments: ["mоm", "Hеllo", "하늘a가δ", "ㅎαㅎ"])
    func mixedScriptsInAUsernameAreRefused(_ name: String) {
        #expect(throws: ValidationError(field: "username", .mixedScripts)) { try User.validUsername(name) }
    }

    @Test(arguments: ["mom", "엄마", "mina_엄마", "金하늘", "田中たろう", "Ольга", "mom-2.0", "ⅿom"])
    func namesPeopleWriteAreKept(_ name: String) throws {
        #expect(try User.validUsername(name) == name)
    }

    @Test(arguments: ["우리집 👨‍👩‍👧‍👦", "❤️ 하늘", "1️⃣ 반", "하늘 👍🏽", "김 하늘", "❤️‍🔥"])
    func emojiSequencesKeepTheirJoiners(_ name: String) throws {
        #expect(LookAlikes.invisible(in: name) == nil)
        #expect(try Validate.name(name, field: "name", maxLength: 50) == name)
    }

    @Test(arguments: [("하늘\u{3164}", 0x3164), ("하\u{200B}늘", 0x200B), ("\u{202E}늘하", 0x202E), ("하늘\u{2800}", 0x2800), ("a\u{200D}b", 0x200D)])
    func invisibleCharactersInANameAreNamed(_ name: String, _ value: UInt32) {
        #expect(throws: ValidationError(field: "name", .invisible(value))) { try Validate.name(name, field: "name", maxLength: 50) }
    }

    @Test func rowsKeptUnderEarlierRulesStillRead() throws {
        let profile = try Validate.readingStored {
            try ChildProfile(name: "하늘\u{3164}" + String(repeating: "e\u{301}", count: 40), birthDate: .solar(try .init(iso: "2025-03-01")))
        }
        #expect(profile.name.hasPrefix("하늘"))
        #expect(throws: ValidationError.self) { try ChildProfile(name: "하늘\u{3164}", birthDate: .solar(try .init(iso: "2025-03-01"))) }
    }

    @Test func scriptsComeFromUnicodesData() {
        #expect(LookAlikes.script(of: "a") == "Latin" && LookAlikes.script(of: "о") == "Cyrillic")
        #expect(LookAlikes.script(of: "하") == "Hangul" && LookAlikes.script(of: "金") == "Han" && LookAlikes.script(of: "_") == "Common")
        #expect(LookAlikes.script(of: "\u{301}") == "Inherited")
    }
}
