import Testing

@testable import KoreanCalendar

@Suite struct SignsAndAgesTests {
    // Every boundary of the spec's table (korean-calendar.md §5), both sides.
    @Test(arguments: [
        ("03-21", StarSign.aries), ("04-19", .aries), ("04-20", .taurus), ("05-20", .taurus), ("05-21", .gemini),
        ("06-21", .gemini), ("06-22", .cancer), ("07-22", .cancer), ("07-23", .leo), ("08-22", .leo), ("08-23", .virgo),
        ("09-22", .virgo), ("09-23", .libra), ("10-23", .libra), ("10-24", .scorpio), ("11-21", .scorpio),
        ("11-22", .sagittarius), ("12-21", .sagittarius), ("12-22", .capricorn), ("12-31", .capricorn),
        ("01-01", .capricorn), ("01-19", .capricorn), ("01-20", .aquarius), ("02-18", .aquarius), ("02-19", .pisces),
        ("02-29", .pisces), ("03-20", .pisces),
    ])
    func starSigns(_ monthDay: String, _ sign: StarSign) throws {
        #expect(StarSign(try SolarDate(iso: "2024-\(monthDay)")) == sign)
    }

    @Test func birthstonesByMonth() throws {
        let names = try (1...12).map { Birthstone(try SolarDate(year: 2024, month: $0, day: 1)).koreanName }
        #expect(names == ["가넷", "자수정", "아쿠아마린", "다이아몬드", "에메랄드", "진주", "루비", "페리도트", "사파이어", "오팔", "토파즈", "터키석"])
    }

    @Test(arguments: [(1984, ZodiacAnimal.rat), (2024, .dragon), (2023, .rabbit), (1900, .rat), (2026, .horse), (1391, .goat)])
    func zodiacByLunarYear(_ year: Int, _ animal: ZodiacAnimal) {
        #expect(ZodiacAnimal(lunarYear: year) == animal)
    }

    @Test(arguments: [
        // born, on, D+N, months, 만 나이
        ("2026-11-22", "2026-11-22", 1, 0, 0),
        ("2026-08-15", "2026-11-22", 100, 3, 0),  // 백일 = birth + 99 days
        ("2025-11-22", "2026-11-21", 365, 11, 0),
        ("2025-11-22", "2026-11-22", 366, 12, 1),
        ("2024-02-29", "2025-02-28", 366, 11, 0),  // a 29 February child turns one on 1 March in common years
        ("2024-02-29", "2025-03-01", 367, 12, 1),
        ("2024-02-29", "2028-02-29", 1462, 48, 4),
        ("2024-01-31", "2024-02-29", 30, 0, 0),
        ("2024-01-31", "2024-03-01", 31, 1, 0),
    ])
    func ages(_ born: String, _ on: String, _ days: Int, _ months: Int, _ years: Int) throws {
        let age = try #require(Age(born: try SolarDate(iso: born), on: try SolarDate(iso: on)))
        #expect(age.days == days)
        #expect(age.months == months)
        #expect(age.years == years)
    }

    @Test func noAgeBeforeBirth() throws {
        #expect(Age(born: try SolarDate(iso: "2026-11-23"), on: try SolarDate(iso: "2026-11-22")) == nil)
    }
}
