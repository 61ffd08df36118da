import Testing

@testable import Multipart

@Suite struct FormFieldsTests {
    @Test func decodesFieldsAndKeepsEveryValue() {
        let form = FormFields(parsing: "title=%EC%B2%AB+%EA%B1%B8%EC%9D%8C&tag=a&tag=b&empty=&bare&%2B=1")
        #expect(form["title"] == "첫 걸음")
        #expect(form.all("tag") == ["a", "b"])
        #expect(form["empty"] == "" && form["bare"] == "" && form["+"] == "1")
        #expect(form.text("empty") == nil && form.text("missing") == nil)
        #expect(FormFields(parsing: "x=+%20 hi%0A").text("x") == "hi")
    }

    @Test(arguments: ["a=%", "a=%4", "a=%zz", "a=%FF%FE", "%=1", "a=%C3"])
    func brokenEscapesAreEmptyNotATrap(_ body: String) {
        let form = FormFields(parsing: body)
        #expect(form.values.values.allSatisfy { $0.allSatisfy { $0.isEmpty || $0 == "1" } })
    }
}
