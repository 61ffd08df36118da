// Measures the calendar module for `make bench` (scripts/bench.py prints the table).
// Prints one JSON object per line: {"work": …, "count": …, "seconds": …}.
import Foundation
import KoreanCalendar

func measure(_ work: String, count: Int, _ body: () throws -> Int) rethrows {
    let start = DispatchTime.now().uptimeNanoseconds
    let checksum = try body()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print("{\"work\":\"\(work)\",\"count\":\(count),\"seconds\":\(seconds),\"checksum\":\(checksum)}")
}

// The same pseudo-random dates for every contender (a fixed linear congruential sequence).
let first = KoreanLunarCalendar.solarRange.lowerBound.julianDayNumber
let span = KoreanLunarCalendar.solarRange.upperBound.julianDayNumber - first + 1
let count = 1_000_000
var state: UInt64 = 20_261_122
var solarDates: [SolarDate] = []
solarDates.reserveCapacity(count)
for _ in 0..<count {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    solarDates.append(try! SolarDate(julianDayNumber: first + Int((state >> 33) % UInt64(span))))
}
let lunarDates = solarDates.map { try! LunarDate.from($0) }

try measure("solar→lunar (Saessak)", count: count) {
    var sum = 0
    for date in solarDates { sum &+= try LunarDate.from(date).day }
    return sum
}
try measure("lunar→solar (Saessak)", count: count) {
    var sum = 0
    for date in lunarDates { sum &+= try SolarDate.from(date).day }
    return sum
}

// Foundation's Chinese calendar (which follows China, not Korea) on the same days, at noon in Seoul.
var chinese = Calendar(identifier: .chinese)
chinese.timeZone = TimeZone(identifier: "Asia/Seoul")!
let foundationCount = 100_000
let instants = solarDates.prefix(foundationCount).map { Date(timeIntervalSince1970: Double($0.julianDayNumber - 2_440_588) * 86_400 + 3 * 3600) }
measure("solar→lunar (Foundation .chinese)", count: foundationCount) {
    var sum = 0
    for instant in instants { sum &+= chinese.dateComponents([.year, .month, .day, .isLeapMonth], from: instant).day ?? 0 }
    return sum
}
let components = instants.map { chinese.dateComponents([.era, .year, .month, .day, .isLeapMonth], from: $0) }
measure("lunar→solar (Foundation .chinese)", count: foundationCount) {
    var sum = 0
    for parts in components { sum &+= chinese.date(from: parts).map { Int($0.timeIntervalSince1970) % 7 } ?? 0 }
    return sum
}

let years = Array(SolarTerms.supportedYears)
let rounds = 20
try measure("24 solar terms of a year", count: years.count * rounds) {
    var sum = 0
    for _ in 0..<rounds {
        for year in years { sum &+= Int(try SolarTerms.moments(in: year)[0].julianEphemerisDay) % 7 }
    }
    return sum
}
