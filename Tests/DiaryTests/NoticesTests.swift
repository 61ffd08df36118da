import Diary
import KoreanCalendar
import Testing

@Suite struct NoticesTests {
    func date(_ text: String) -> SolarDate { try! SolarDate(iso: text) }

    /// Leap-aware lunar anniversaries (dates from korean-lunar-calendar): 윤6월 10일 falls in the leap month in 2025,
    /// which has one, and in the ordinary sixth month in 2026, which has none.
    @Test func lunarAnniversariesFollowTheLeapMonthWhenTheYearHasIt() throws {
        let leap = try AnniversaryDetails(name: "윤달 기념일", calendar: .lunar, month: 6, day: 10, isLeapMonth: true)
        #expect(Notices.occurrences(leap, around: date("2025-08-01"), last: date("2025-08-05")).contains(date("2025-08-03")))
        #expect(Notices.occurrences(leap, around: date("2026-07-20"), last: date("2026-07-25")).contains(date("2026-07-23")))
        let ordinary = try AnniversaryDetails(name: "평달", calendar: .lunar, month: 6, day: 10)
        #expect(Notices.occurrences(ordinary, around: date("2025-07-01"), last: date("2025-07-05")).contains(date("2025-07-04")))
    }

    @Test func solarLeapDayAnniversariesFallOnTheTwentyEighthInCommonYears() throws {
        let leapDay = try AnniversaryDetails(name: "2/29", calendar: .solar, month: 2, day: 29)
        #expect(Notices.occurrences(leapDay, around: date("2026-02-01"), last: date("2026-03-01")) == [date("2026-02-28")])
        #expect(Notices.occurrences(leapDay, around: date("2028-02-01"), last: date("2028-03-01")) == [date("2028-02-29")])
    }
}
