import ArgumentParser
import Foundation
import KoreanCalendar

/// `saessak lunar 2024-02-10`: the lunar date, 간지 and 단기 year of a solar date.
struct LunarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lunar",
        abstract: "Convert a solar (양력) date to the Korean lunar calendar (음력).",
        discussion: """
            Dates are proleptic Gregorian, as in KASI's tables (1391-02-05 … 2050-12-31); give --julian for a date
            from a document written in the Julian calendar (before 1582-10-15).
            With '-' instead of a date, reads one date per line from standard input and writes one JSON object per line.
            """)

    @Argument(help: "A solar date YYYY-MM-DD, or '-' to read one per line from standard input.")
    var date: String

    @Flag(help: "Read the date as a Julian-calendar date.")
    var julian = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if date != "-" { _ = try parse(date) }
    }

    func run() throws {
        try DateConversion.run(input: date, json: output.json) { line in
            let solar = try parse(line)
            return DateConversion(solar: solar, lunar: try LunarDate.from(solar))
        }
    }

    private func parse(_ text: String) throws(CLIError) -> SolarDate {
        do {
            if julian {
                let parts = text.split(separator: "-").compactMap { Int($0) }
                guard parts.count == 3 else { throw CalendarError.malformed(text, expected: "YYYY-MM-DD") }
                return try SolarDate.julian(year: parts[0], month: parts[1], day: parts[2])
            }
            return try SolarDate(iso: text)
        } catch {
            throw CLIError("\(error)")
        }
    }
}

/// `saessak solar 2024-01-01 [--leap]`: the solar date of a lunar date.
struct SolarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "solar",
        abstract: "Convert a Korean lunar (음력) date to the solar calendar (양력).",
        discussion: """
            With '-' instead of a date, reads one lunar date per line from standard input ('YYYY-MM-DD' or
            'YYYY-MM-DD leap') and writes one JSON object per line.
            """)

    @Argument(help: "A lunar date YYYY-MM-DD, or '-' to read one per line from standard input.")
    var date: String

    @Flag(help: "The date is in the leap month (윤달).")
    var leap = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if date != "-" { _ = try convert(date, leap: leap) }
    }

    func run() throws {
        try DateConversion.run(input: date, json: output.json) { line in
            if date != "-" { return try convert(line, leap: leap) }
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard (1...2).contains(parts.count), parts.count == 1 || parts[1] == "leap" else {
                throw CLIError("'\(line)' is not 'YYYY-MM-DD' or 'YYYY-MM-DD leap'")
            }
            return try convert(String(parts[0]), leap: parts.count == 2)
        }
    }

    private func convert(_ text: String, leap: Bool) throws(CLIError) -> DateConversion {
        do {
            let lunar = try LunarDate(iso: text, isLeapMonth: leap)
            return DateConversion(solar: try SolarDate.from(lunar), lunar: lunar)
        } catch {
            throw CLIError("\(error)")
        }
    }
}

/// One converted date, printed as text for people or as one line of JSON for scripts.
struct DateConversion {
    let solar: SolarDate
    let lunar: LunarDate

    var json: String {
        let ganji = Ganji.of(lunar, solar: solar)
        return """
            {"solar":"\(solar.iso)","lunar":{"year":\(lunar.year),"month":\(lunar.month),"day":\(lunar.day),\
            "isLeapMonth":\(lunar.isLeapMonth)},"ganji":{"year":"\(ganji.year)","month":"\(ganji.month)","day":"\(ganji.day)"},\
            "dangi":\(Dangi.year(lunarYear: lunar.year))}
            """
    }

    var text: String {
        let ganji = Ganji.of(lunar, solar: solar)
        let weekday = ["일", "월", "화", "수", "목", "금", "토"][solar.weekday]
        return "양력 \(solar.year)년 \(solar.month)월 \(solar.day)일 (\(weekday)) = 음력 \(lunar.year)년 "
            + "\(lunar.isLeapMonth ? "윤" : "")\(lunar.month)월 \(lunar.day)일 · \(ganji.year)년 \(ganji.month)월 \(ganji.day)일"
            + " · 단기 \(Dangi.year(lunarYear: lunar.year))년"
    }

    /// One date, or (for '-') every line of standard input: one JSON object per line, an error object for a bad
    /// line, and a failing exit status at the end if any line was bad.
    static func run(input: String, json: Bool, convert: (String) throws -> DateConversion) throws {
        guard input == "-" else {
            let conversion = try convert(input)
            print(json ? conversion.json : conversion.text)
            return
        }
        try BatchInput.run { line in try convert(line).json }
    }
}
