import Foundation
import Testing

@testable import KoreanCalendar

/// Reference instants from ../shared/spec/korean-calendar.md §2 (KASI, to the minute, KST); the whole of
/// 1900–2100 is checked against skyfield and PyEphem by tests/test_calendar_oracles.py.
@Suite struct SolarTermTests {
    @Test(arguments: [
        (2021, SolarTerm.beginningOfSpring, "2021-02-03T23:59"),
        (2022, .minorCold, "2022-01-05T18:14"),
        (2026, .beginningOfSpring, "2026-02-04T05:02"),
    ])
    func kasiReferenceInstants(_ year: Int, _ term: SolarTerm, _ minute: String) throws {
        let moment = try #require(try SolarTerms.moments(in: year).first { $0.term == term })
        // KASI publishes the nearest minute (2021 입춘 was 23:58:48 KST by JPL DE421).
        let rounded = Date(timeIntervalSince1970: (moment.instant.timeIntervalSince1970 / 60).rounded() * 60)
        let parts = SeoulTime.components(of: rounded)
        #expect("\(parts.date.iso)T\(parts.time.prefix(5))" == minute, "computed \(moment.seoulLocal)")
    }

    @Test func twentyFourTermsInOrderAndApart() throws {
        for year in [1900, 1954, 2000, 2024, 2100] {
            let moments = try SolarTerms.moments(in: year)
            #expect(moments.map(\.term) == SolarTerm.allCases)
            #expect(moments.allSatisfy { $0.seoulDate.year == year })
            for (a, b) in zip(moments, moments.dropFirst()) {
                let days = b.instant.timeIntervalSince(a.instant) / 86_400
                #expect((14.5...16.0).contains(days))
            }
        }
    }

    @Test func seoulTimeFollowsTheHistoricalOffsets() throws {
        let spring1955 = try #require(try SolarTerms.moments(in: 1955).first { $0.term == .springEquinox })
        #expect(spring1955.seoulOffset == "+08:30")
        #expect(try SolarTerms.moments(in: 2025)[0].seoulOffset == "+09:00")
        #expect(throws: CalendarError.outsideSolarTermYears(2101)) { try SolarTerms.moments(in: 2101) }
    }

    /// Before April 1908 Seoul kept local mean time, UTC+8:27:52: the offset keeps its seconds (issue 16 found
    /// `+08:27`, which named an instant 52 s away), and local time minus the offset is the UTC instant exactly.
    @Test(arguments: [1900, 1905, 1907, 1908, 1912, 1955, 1988, 2025])
    func localTimeMinusItsOffsetIsTheUTCInstant(year: Int) throws {
        for moment in try SolarTerms.moments(in: year) {
            let utc = try #require(ISO8601DateFormatter().date(from: moment.utcISO))
            #expect(utc.timeIntervalSince1970 == moment.instant.timeIntervalSince1970.rounded(.down))
            let sign = moment.seoulOffset.hasPrefix("-") ? -1 : 1
            let fields = moment.seoulOffset.dropFirst().split(separator: ":").compactMap { Int($0) }
            let offset = sign * (fields[0] * 3600 + fields[1] * 60 + (fields.count > 2 ? fields[2] : 0))
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate]
            formatter.timeZone = TimeZone(secondsFromGMT: 0)
            let wall = try #require(formatter.date(from: moment.seoulLocal))
            #expect(wall.timeIntervalSince1970 - Double(offset) == utc.timeIntervalSince1970, "\(moment.seoulLocal)\(moment.seoulOffset) vs \(moment.utcISO)")
        }
        if year == 1905 { #expect(try SolarTerms.moments(in: year)[0].seoulOffset == "+08:27:52") }
    }

    @Test func namesAndLongitudes() {
        #expect(SolarTerm.beginningOfSpring.koreanName == "입춘" && SolarTerm.beginningOfSpring.longitude == 315)
        #expect(SolarTerm.springEquinox.longitude == 0 && SolarTerm.winterSolstice.longitude == 270)
        #expect(SolarTerm.minorCold.hanja == "小寒")
    }
}

@Suite struct FastCosineTests {
    @Test func agreesWithTheCLibrary() {
        var worst = 0.0
        var x = -100_000.0
        while x < 100_000 {
            worst = max(worst, abs(FastCosine.cos(x) - cos(x)), abs(FastCosine.sin(x) - sin(x)))
            x += 0.739
        }
        #expect(worst < 1e-11)
    }
}
