import KoreanCalendar
import Testing

@testable import Diary

@Suite struct DiaryValidationTests {
    let child = ChildID()
    let noon = try! LocalDateTime(iso: "2026-11-22T12:00")

    /// `Seen` drops what a set would, in the same order, below and past the point where it turns into one.
    @Test func seenDropsRepeatsAsASetWould() {
        var state: UInt64 = 5
        for length in [0, 1, 2, 15, 16, 17, 40, 300] {
            let items = (0..<length).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int(state >> 59)
            }
            var seen = Seen<Int>()
            var set = Set<Int>()
            #expect(items.filter { seen.insert($0) } == items.filter { set.insert($0).inserted }, "\(items)")
        }
        var many = Seen<Int>()
        #expect((0..<1000).allSatisfy { many.insert($0) } && !many.insert(3) && !many.insert(999) && many.insert(1000))
    }

    @Test func residentNumbersAreMaskedEverywhereTheyPrint() throws {
        let number = try ResidentNumber("240229-4123456")
        #expect(number.masked == "240229-4******")
        #expect("\(number)" == "240229-4******")
        #expect(number.formatted == "240229-4123456")
        #expect(try ResidentNumber("2402294123456") == number)
    }

    @Test(arguments: ["240229-412345", "240229_4123456", "24022-94123456", "abcdef-gggggg1", "240229-41234567", ""])
    func malformedResidentNumbers(_ text: String) {
        #expect(throws: ValidationError.self) { try ResidentNumber(text) }
    }

    @Test func birthDatesNameTheFieldAtFault() throws {
        #expect(throws: ValidationError(field: "isLeapMonth", "only a lunar birth date can be in a leap month")) {
            try BirthDate(iso: "2024-01-01", calendar: .solar, isLeapMonth: true)
        }
        #expect(throws: ValidationError(field: "birthDate", "day 30 does not exist in 2023-02 (it has 28 days)")) {
            try BirthDate(iso: "2023-02-30", calendar: .solar, isLeapMonth: false)
        }
        #expect(try BirthDate(iso: "2023-02-29", calendar: .lunar, isLeapMonth: true).isLeapMonth)
        #expect(throws: ValidationError(field: "birthDate", "lunar 2023-02 (윤) has 29 days: day 30 does not exist")) {
            try BirthDate(iso: "2023-02-30", calendar: .lunar, isLeapMonth: true)
        }
        #expect(throws: ValidationError(field: "isLeapMonth", "lunar 2024 has no leap month 2 (it has no leap month)")) {
            try BirthDate(iso: "2024-02-01", calendar: .lunar, isLeapMonth: true)
        }
    }

    @Test func entryContentIsNormalised() throws {
        let content = try EntryContent(
            title: "  첫 걸음 ", body: "아기가\n걸었어요  ", date: noon, childIDs: [child, child],
            tags: ["#걸음마", "걸음마", " Walk ", "walk"])
        #expect(content.title == "첫 걸음")
        #expect(content.body == "아기가\n걸었어요  ")
        #expect(content.childIDs == [child])
        #expect(content.tags == ["걸음마", "Walk"])
        #expect(content.timeZone == "Asia/Seoul")
    }

    /// Regression (test_text_fields' generated text): "#\u{200D}" is one character in Swift, so a check of the first
    /// character kept the `#` that the API drops from every other tag.
    @Test func aTagsHashIsItsFirstScalar() throws {
        #expect(try Tag.normalisedName("#\u{200D}") == "\u{200D}")
        #expect(try Tag.normalisedName(" #\u{301}걸음마") == "\u{301}걸음마")
        #expect(throws: ValidationError.self) { try Tag.normalisedName("# \u{3000}") }
    }

    @Test func invalidEntriesNameTheirField() {
        let (c, d) = (child, noon)
        let cases: [(String, () throws -> EntryContent)] = [
            ("title", { try EntryContent(title: " ", body: "", date: d, childIDs: [c]) }),
            ("childIds", { try EntryContent(title: "t", body: "", date: d, childIDs: []) }),
            ("timeZone", { try EntryContent(title: "t", body: "", date: d, timeZone: "KST", childIDs: [c]) }),
            ("tags", { try EntryContent(title: "t", body: "", date: d, childIDs: [c], tags: ["#"]) }),
            ("body", { try EntryContent(title: "t", body: String(repeating: "가", count: 100_001), date: d, childIDs: [c]) }),
        ]
        for (field, make) in cases {
            let error = #expect(throws: ValidationError.self) { _ = try make() }
            #expect(error?.field == field)
        }
    }

    /// Regression (schemathesis, issue 18): a child named "\u{0}…" passed validation, then SQLite's CHECK saw an empty
    /// name and the API answered 500.
    @Test func textWithNULIsRefusedNamingTheField() throws {
        #expect(throws: ValidationError(field: "name", "must not contain the NUL character")) {
            try ChildProfile(name: "\u{0}\u{8e}", birthDate: .solar(try SolarDate(iso: "2020-01-03")))
        }
        #expect(throws: ValidationError(field: "title", "must not contain the NUL character")) {
            try EntryContent(title: "a\u{0}b", body: "", date: noon, childIDs: [child])
        }
    }

    @Test func places() throws {
        #expect(try Place(name: "집", latitude: nil, longitude: nil).name == "집")
        #expect(throws: ValidationError(field: "place.longitude", "latitude and longitude go together")) {
            try Place(name: nil, latitude: 1, longitude: nil)
        }
        #expect(throws: ValidationError(field: "place", "needs a name or coordinates")) { try Place(name: " ", latitude: nil, longitude: nil) }
        #expect(throws: ValidationError.self) { try Place(name: nil, latitude: 0, longitude: 180.5) }
    }

    @Test func anniversaries() throws {
        #expect(try AnniversaryDetails(name: "윤달 생일", calendar: .lunar, month: 2, day: 30, isLeapMonth: true).isLeapMonth)
        #expect(try AnniversaryDetails(name: "2/29", calendar: .solar, month: 2, day: 29).day == 29)
        #expect(throws: ValidationError.self) { try AnniversaryDetails(name: "x", calendar: .solar, month: 4, day: 31) }
        #expect(throws: ValidationError.self) { try AnniversaryDetails(name: "x", calendar: .lunar, month: 1, day: 31) }
        #expect(throws: ValidationError.self) { try AnniversaryDetails(name: "x", calendar: .solar, month: 1, day: 1, isLeapMonth: true) }
    }

    @Test func factsFromBothCalendars() throws {
        let today = try SolarDate(iso: "2026-11-22")
        let lunarBorn = ChildFacts(birthDate: try BirthDate(iso: "2023-02-10", calendar: .lunar, isLeapMonth: true), today: today)
        #expect(lunarBorn.solarBirthDate?.iso == "2023-03-31")
        #expect(lunarBorn.zodiacAnimal == .rabbit && lunarBorn.starSign == .aries && lunarBorn.birthstone == .aquamarine)
        #expect(lunarBorn.age?.years == 3)
        // Born 2024-02-09, the day before 설날: still a rabbit (lunar 2023), though the solar year says dragon.
        let beforeSeollal = ChildFacts(birthDate: .solar(try SolarDate(iso: "2024-02-09")), today: today)
        #expect(beforeSeollal.lunarBirthDate == (try LunarDate(iso: "2023-12-30")))
        #expect(beforeSeollal.zodiacAnimal == .rabbit)
        let outsideTable = ChildFacts(birthDate: .solar(try SolarDate(iso: "2051-01-01")), today: today)
        #expect(outsideTable.lunarBirthDate == nil && outsideTable.zodiacAnimal == nil && outsideTable.age == nil)
    }

    @Test func growthUnitsMatchTheKind() throws {
        #expect(throws: ValidationError.self) {
            try GrowthMeasurement(childID: child, kind: .weight, value: 3.2, unit: .centimetres, date: noon.date)
        }
        #expect(throws: ValidationError.self) {
            try GrowthMeasurement(childID: child, kind: .height, value: -1, unit: .centimetres, date: noon.date)
        }
    }

    @Test func usernames() throws {
        #expect(try User.validUsername("mina.kim-2") == "mina.kim-2")
        #expect(try User.validUsername("김민아") == "김민아")
        #expect(throws: ValidationError.self) { try User.validUsername("a b") }
        #expect(throws: ValidationError.self) { try User.validUsername(String(repeating: "a", count: 65)) }
    }
}
