/// The Korean lunisolar calendar as data: month lengths and leap months per lunar year, from the KASI-derived
/// table in `LunarYearTable+Data.swift`, with the solar start of every year precomputed for O(log n) lookups.
enum LunarYearTable {
    static var lastYear: Int { firstYear + words.count - 1 }

    /// Julian Day Number of 1st day of month 1 of each lunar year in the table, and one past the last year.
    static let yearStarts: [Int] = {
        var starts = [firstYearStart]
        starts.reserveCapacity(words.count + 1)
        for word in words { starts.append(starts.last! + yearLength(word)) }
        return starts
    }()

    static func word(_ year: Int) -> UInt32 { words[year - firstYear] }

    /// The leap month's number in `year`, or nil when the year has none.
    static func leapMonth(_ year: Int) -> Int? {
        let month = Int((word(year) >> 12) & 0xF)
        return month == 0 ? nil : month
    }

    static func monthLength(_ word: UInt32, month: Int, isLeapMonth: Bool) -> Int {
        let bit = isLeapMonth ? 16 : 12 - month
        return (word >> UInt32(bit)) & 1 == 1 ? 30 : 29
    }

    static func yearLength(_ word: UInt32) -> Int {
        var days = 0
        for month in 1...12 { days += monthLength(word, month: month, isLeapMonth: false) }
        if (word >> 12) & 0xF != 0 { days += monthLength(word, month: 0, isLeapMonth: true) }
        return days
    }

    /// The lunar year whose span holds `jdn` (the caller has checked the range).
    static func year(containing jdn: Int) -> Int {
        var low = 0
        var high = words.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if yearStarts[middle] <= jdn { low = middle } else { high = middle - 1 }
        }
        return firstYear + low
    }
}
