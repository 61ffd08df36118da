import ArgumentParser
import Foundation
import KoreanCalendar

/// `saessak holidays 2026`: the public holidays of a year, substitute holidays included.
struct HolidaysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "holidays",
        abstract: "Korean public holidays (공휴일) of a year, 1985–2050, with substitute holidays (대체공휴일).",
        discussion: """
            This release counts 노동절 (5/1) as a public holiday from 2026; --without-labor-day leaves it out.
            With '-' instead of a year, reads one year per line and writes {"year": …, "holidays": […]} per line.
            """)

    @Argument(help: "A year (1985–2050), or '-' to read one per line from standard input.")
    var year: String

    @Flag(help: "Do not count 노동절 (5/1) as a public holiday.")
    var withoutLaborDay = false

    @OptionGroup var output: OutputOptions

    var rules: HolidayRules { withoutLaborDay ? HolidayRules(laborDayFrom: nil) : .current }

    func validate() throws {
        if year != "-" { _ = try holidays(year) }
    }

    func run() throws {
        guard year != "-" else {
            try BatchInput.run { text in
                let rows = try self.holidays(text)  // checks that the line is a year
                return "{\"year\":\(Int(text)!),\"holidays\":\(Self.json(rows))}"
            }
            return
        }
        let holidays = try holidays(year)
        if output.json {
            print(Self.json(holidays))
            return
        }
        for holiday in holidays {
            let weekday = ["일", "월", "화", "수", "목", "금", "토"][holiday.date.weekday]
            print("\(holiday.date.iso) (\(weekday))  \(holiday.name)  \(holiday.nameEn)")
        }
    }

    private func holidays(_ text: String) throws -> [Holiday] {
        guard let year = Int(text) else { throw CLIError("'\(text)' is not a year") }
        do { return try KoreanHolidays.holidays(in: year, rules: rules) } catch { throw CLIError("\(error)") }
    }

    static func json(_ holidays: [Holiday]) -> String {
        "[" + holidays.map { holiday in
            """
            {"date":"\(holiday.date.iso)","name":"\(holiday.name)","nameEn":"\(holiday.nameEn)",\
            "substitute":\(holiday.isSubstitute),"kind":"\(holiday.kind.rawValue)"}
            """
        }.joined(separator: ",") + "]"
    }
}
