import Testing

@testable import KoreanCalendar

/// The age written under a photo: day N to 백일, months to three years (돌 on the first birthday), then 만 나이.
@Suite struct AgeLabelTests {
    @Test(arguments: [
        ("2025-03-01", "2025-03-01", "생후 1일", "day 1"),
        ("2025-03-01", "2025-03-21", "생후 21일", "day 21"),
        ("2025-03-01", "2025-06-07", "생후 99일", "day 99"),
        ("2025-03-01", "2025-06-08", "백일", "100th day"),
        ("2025-03-01", "2025-06-09", "3개월", "3 months"),
        ("2025-03-01", "2026-02-28", "11개월", "11 months"),
        ("2025-03-01", "2026-03-01", "돌", "first birthday"),
        ("2025-03-01", "2026-03-02", "12개월", "12 months"),
        ("2025-03-01", "2028-02-29", "35개월", "35 months"),
        ("2025-03-01", "2028-03-01", "만 3세", "age 3"),
        ("2024-01-31", "2024-06-01", "4개월", "4 months"),  // 31 May completes the fourth month; 30 June has no 31st
    ])
    func labels(birth: String, on date: String, korean: String, english: String) throws {
        let label = try #require(AgeLabel(born: try SolarDate(iso: birth), on: try SolarDate(iso: date)))
        #expect(label.korean == korean && label.english == english)
    }

    @Test func noAgeBeforeTheBirthAndALunarFirstBirthday() throws {
        #expect(AgeLabel(born: try SolarDate(iso: "2025-03-01"), on: try SolarDate(iso: "2025-02-28")) == nil)
        // Born on lunar 2025-02-02 (solar 2025-03-01): the lunar first birthday is lunar 2026-02-02.
        let lunar = try LunarDate.from(try SolarDate(iso: "2025-03-01"))
        let dol = try Milestone.firstBirthday.date(born: try SolarDate(iso: "2025-03-01"), lunarBirth: lunar)
        #expect(AgeLabel(born: try SolarDate(iso: "2025-03-01"), lunarBirth: lunar, on: dol) == .firstBirthday)
        #expect(AgeLabel(born: try SolarDate(iso: "2025-03-01"), lunarBirth: lunar, on: try SolarDate(iso: "2026-03-01")) != .firstBirthday || dol.iso == "2026-03-01")
    }
}
