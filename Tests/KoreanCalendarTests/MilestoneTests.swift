import Testing

@testable import KoreanCalendar

@Suite struct MilestoneTests {
    @Test func milestonesCountTheBirthDayAsDayOne() throws {
        let birth = try SolarDate(iso: "2026-01-01")
        #expect(try Milestone.samchil.date(born: birth).iso == "2026-01-21")
        #expect(try Milestone.baegil.date(born: birth).iso == "2026-04-10")
        #expect(try Milestone.day200.date(born: birth).iso == "2026-07-19")
        #expect(try Milestone.day1000.date(born: birth).iso == "2028-09-26")
        #expect(try Milestone.firstBirthday.date(born: birth).iso == "2027-01-01")
        #expect(try Age(born: birth, on: Milestone.baegil.date(born: birth))?.days == 100)
    }

    @Test func solarBirthdaysOf29February() throws {
        let leapling = try SolarDate(iso: "2024-02-29")
        #expect(Birthday.solar(leapling, in: 2025).iso == "2025-02-28")
        #expect(Birthday.solar(leapling, in: 2028).iso == "2028-02-29")
    }

    @Test func lunarBirthdays() throws {
        // Born in the leap 2nd month of 2023: celebrates on the ordinary 2nd month.
        let leapBorn = try LunarDate(iso: "2023-02-10", isLeapMonth: true)
        #expect(try Birthday.lunar(leapBorn, inLunarYear: 2024) == SolarDate.from(try LunarDate(iso: "2024-02-10")))
        // Day 30 in a year whose month has 29 days falls back to day 29.
        var year = 2024
        while try KoreanLunarCalendar.daysInMonth(year: year, month: 12) == 30 { year += 1 }
        let born30 = try LunarDate(year: 2000, month: 12, day: 30)
        #expect(try Birthday.lunar(born30, inLunarYear: year) == SolarDate.from(try LunarDate(year: year, month: 12, day: 29)))
        // 첫돌 of a lunar-kept birthday.
        let birth = try SolarDate.from(leapBorn)
        #expect(try Milestone.firstBirthday.date(born: birth, lunarBirth: leapBorn) == Birthday.lunar(leapBorn, inLunarYear: 2024))
    }

    @Test func zodiacYearBoundaries() throws {
        // 2024: 입춘 on 4 February (17:27 KST), 설날 on 10 February.
        let between = try SolarDate(iso: "2024-02-06")
        #expect(try YearBoundary.seollal.year(of: between) == 2023)  // 토끼 by 설날
        #expect(try YearBoundary.ipchun.year(of: between) == 2024)  // 용 by 입춘
        let ipchunDay = try SolarDate(iso: "2024-02-04")
        #expect(try YearBoundary.ipchun.year(of: ipchunDay, time: ClockTime(iso: "08:00")) == 2023)
        #expect(try YearBoundary.ipchun.year(of: ipchunDay, time: ClockTime(iso: "20:00")) == 2024)
        #expect(try YearBoundary.ipchun.year(of: try SolarDate(iso: "2024-02-03")) == 2023)
    }
}
