import Testing

@testable import Multipart

@Suite struct JSONDuplicateKeysTests {
    @Test(arguments: [
        (#"{"title": "a", "title": "b"}"#, "title"),
        (#"{"place": {"name": "a", "name": "b"}, "title": "t"}"#, "name"),
        (#"[{"a": 1}, {"b": 2, "b": 3}]"#, "b"),
        (#"{"title": "a", "\u0074itle": "b"}"#, "title"),
        (#"{"\ud83d\ude00": 1, "😀": 2}"#, "😀"),
        (#"{"a": {"x": 1}, "b": [1, {"c": 2}], "a": 3}"#, "a"),
        (#"{"k\"q": 1, "k\u0022q": 2}"#, "k\"q"),
    ])
    func aKeyTwiceInOneObjectIsFound(_ json: String, _ key: String) {
        #expect(JSONDuplicateKeys.first(in: Array(json.utf8)) == key)
    }

    @Test(arguments: [
        #"{"title": "a", "body": "title"}"#,
        #"{"a": {"b": 1}, "b": {"a": 2}}"#,
        #"[{"a": 1}, {"a": 2}]"#,
        #"{"a": "x,\"a\": 2"}"#,
        #"{"a": 1, "A": 2, "a ": 3}"#,
        #"{"\ud800": 1, "\udc00": 2}"#,
        #"{"a": 1"#, #"}}]]"#, #""unterminated"#, #"{"a\u12": 1, "a\u12": 2}"#, "", "\u{0}",
    ])
    func otherwiseNothingIsFound(_ json: String) {
        #expect(JSONDuplicateKeys.first(in: Array(json.utf8)) == nil)
    }

    @Test func deepNestingEndsWithoutRecursion() {
        let deep = String(repeating: "[", count: 100_000) + #"{"a": 1, "a": 2}"#
        #expect(JSONDuplicateKeys.first(in: Array(deep.utf8)) == nil)
        let shallow = String(repeating: "[", count: 500) + #"{"a": 1, "a": 2}"#
        #expect(JSONDuplicateKeys.first(in: Array(shallow.utf8)) == "a")
    }
}
