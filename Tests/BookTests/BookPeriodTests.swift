import KoreanCalendar
import Testing

@testable import Book

/// The days a book holds: a year, or any days up to three years, named the way each language writes them.
@Suite struct BookPeriodTests {
    @Test func aYearAndItsName() throws {
        let year = try BookPeriod(year: 2026)
        let (january, december) = (try SolarDate(year: 2026, month: 1, day: 1), try SolarDate(year: 2026, month: 12, day: 31))
        #expect(year.first == january && year.last == december)
        #expect(year.name(.korean) == "2026년" && year.name(.english) == "2026")
        let next = try december.adding(days: 1)
        #expect(year.contains(december) && !year.contains(next))
        #expect(throws: BookError.self) { try BookPeriod(year: 1899) }
        #expect(throws: BookError.self) { try BookPeriod(year: 2101) }
    }

    @Test func daysInOrderAndAtMostThreeYears() throws {
        let first = try SolarDate(year: 2026, month: 3, day: 1)
        let period = try BookPeriod(from: first, through: try SolarDate(year: 2027, month: 2, day: 28))
        #expect(period.year == nil)
        #expect(period.name(.korean) == "2026년 3월 1일 – 2027년 2월 28일")
        #expect(period.name(.english) == "1 March 2026 – 28 February 2027")
        #expect(throws: BookError.self) { try BookPeriod(from: first, through: try SolarDate(year: 2026, month: 2, day: 28)) }
        // Three years and a day is the longest: 1,099 days.
        #expect(throws: Never.self) { try BookPeriod(from: first, through: try first.adding(days: BookPeriod.longestDays - 1)) }
        #expect(throws: BookError.self) { try BookPeriod(from: first, through: try first.adding(days: BookPeriod.longestDays)) }
        // One day is a period too.
        #expect(try BookPeriod(from: first, through: first).contains(first))
    }
}
