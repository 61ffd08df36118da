import Testing

@testable import KoreanCalendar

@Suite struct MonthViewTests {
    @Test func february2026() throws {
        let view = try MonthView(year: 2026, month: 2)
        #expect(view.weeks.count == 4)  // 1 February 2026 is a Sunday and the month has 28 days
        let days = view.weeks.flatMap { $0 }
        #expect(days.first?.date.iso == "2026-02-01" && days.last?.date.iso == "2026-02-28")
        let byDate = Dictionary(uniqueKeysWithValues: days.map { ($0.date.iso, $0) })
        #expect(byDate["2026-02-04"]?.caption == "입춘")
        #expect(byDate["2026-02-17"]?.caption == "1.1")
        #expect(byDate["2026-02-17"]?.isRedDay == true)
        #expect(byDate["2026-02-07"]?.isSaturday == true && byDate["2026-02-07"]?.isRedDay == false)
        #expect(byDate["2026-02-16"]?.holidays.map(\.name) == ["설날 연휴"])
    }

    @Test func neighboursFillTheWeeksAndLeapMonthsAreMarked() throws {
        let view = try MonthView(year: 2023, month: 3)
        let days = view.weeks.flatMap { $0 }
        #expect(days.count % 7 == 0)
        #expect(days.first?.date.iso == "2023-02-26" && days.first?.isInMonth == false)
        #expect(days.first { $0.date.iso == "2023-03-22" }?.caption == "윤2.1")
        #expect(view.weeks.allSatisfy { $0.first!.isSunday && $0.last!.isSaturday })
    }
}
