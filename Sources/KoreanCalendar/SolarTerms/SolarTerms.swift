import Foundation
import Synchronization

/// When a solar term happens: the instant, and the civil date and time in Seoul.
public struct SolarTermMoment: Hashable, Sendable {
    public let term: SolarTerm
    /// The instant (UT; UTC to within a second).
    public let instant: Date
    /// The instant in Terrestrial Time, as a Julian Ephemeris Day (what the ephemeris computes).
    public let julianEphemerisDay: Double

    /// The date in Asia/Seoul civil time (UTC+9 today; tzdata knows the historical offsets, e.g. UTC+8:30 in 1954–1961).
    public var seoulDate: SolarDate { SeoulTime.components(of: instant).date }
    /// `YYYY-MM-DDTHH:MM:SSZ`: the instant in UTC (UT1 before 1972, when civil time followed the mean Sun), to the
    /// second, rounded down. The one form a program should read.
    public var utcISO: String {
        let parts = SeoulTime.components(of: instant, offset: 0)
        return "\(parts.date.iso)T\(parts.time)Z"
    }
    /// `YYYY-MM-DDTHH:MM:SS`: the wall-clock time in Seoul, for display beside `seoulOffset`.
    public var seoulLocal: String {
        let parts = SeoulTime.components(of: instant)
        return "\(parts.date.iso)T\(parts.time)"
    }
    /// Seoul's offset from UTC at the instant: `+09:00`, or with seconds where local mean time had them
    /// (`+08:27:52` before April 1908), so that `seoulLocal` minus it is exactly `utcISO`.
    public var seoulOffset: String { SeoulTime.components(of: instant).offset }
}

/// The 24 solar terms of a year, computed astronomically (see `SolarLongitude`).
public enum SolarTerms {
    /// Years the computation is checked for (ΔT table and the tests' oracles): 1900–2100.
    public static let supportedYears = 1900...2100

    /// The 24 terms of Gregorian year `year`, in time order from 소한. Each year is computed once and kept (201 years of
    /// 24 moments at most): a month page asked for its years' terms on every view, and VSOP87's series were 4 % of a
    /// busy month page (issue 35).
    public static func moments(in year: Int) throws(CalendarError) -> [SolarTermMoment] {
        guard supportedYears.contains(year) else { throw .outsideSolarTermYears(year) }
        if let known = computed.withLock({ $0[year] }) { return known }
        let moments = compute(year)
        computed.withLock { $0[year] = moments }
        return moments
    }

    private static let computed = Mutex<[Int: [SolarTermMoment]]>([:])

    private static func compute(_ year: Int) -> [SolarTermMoment] {
        // 소한 falls on 5 or 6 January; each term follows the last by about 15.2 days.
        var guess = (try! SolarDate(year: year, month: 1, day: 6)).julianDayNumber
        var moments: [SolarTermMoment] = []
        moments.reserveCapacity(24)
        for term in SolarTerm.allCases {
            let jde = SolarLongitude.moment(reaching: Double(term.longitude), near: Double(guess))
            let ut = jde - DeltaT.seconds(atJulianDay: jde) / 86_400
            moments.append(
                SolarTermMoment(term: term, instant: Date(timeIntervalSince1970: (ut - 2_440_587.5) * 86_400), julianEphemerisDay: jde))
            guess = Int(jde.rounded()) + 15
        }
        return moments
    }
}

/// Civil time in Asia/Seoul for an instant.
enum SeoulTime {
    static let zone = TimeZone(identifier: "Asia/Seoul")!

    /// Korea has kept UTC+9 without daylight saving since 1988-10-09 (tzdata); asking ICU costs microseconds.
    static let fixedOffsetSince = Date(timeIntervalSince1970: 592_412_400)  // 1988-10-09T15:00:00Z

    static func offset(at instant: Date) -> Int {
        instant >= fixedOffsetSince ? 9 * 3600 : zone.secondsFromGMT(for: instant)
    }

    static func components(of instant: Date) -> (date: SolarDate, time: String, offset: String) {
        components(of: instant, offset: offset(at: instant))
    }

    /// The wall-clock date and time at `offset` seconds east of UTC, and the offset written `±HH:MM` (`±HH:MM:SS`
    /// when it is not whole minutes: truncating 52 seconds would name another instant).
    static func components(of instant: Date, offset: Int) -> (date: SolarDate, time: String, offset: String) {
        let local = Int((instant.timeIntervalSince1970 + Double(offset)).rounded(.down))
        let days = local >= 0 ? local / 86_400 : -((-local + 86_399) / 86_400)
        let seconds = local - days * 86_400
        let date = try! SolarDate(julianDayNumber: days + 2_440_588)
        let time = "\(SolarDate.pad(seconds / 3600, 2)):\(SolarDate.pad(seconds / 60 % 60, 2)):\(SolarDate.pad(seconds % 60, 2))"
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset)
        var written = "\(sign)\(SolarDate.pad(magnitude / 3600, 2)):\(SolarDate.pad(magnitude / 60 % 60, 2))"
        if magnitude % 60 != 0 { written += ":\(SolarDate.pad(magnitude % 60, 2))" }
        return (date, time, written)
    }
}
