import ArgumentParser
import Foundation
import KoreanCalendar

/// `saessak terms 2025`: the 24 solar terms of a year with their instants in Seoul.
struct TermsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "terms",
        abstract: "The 24 solar terms (24절기) of a year, 1900–2100, to the second in Seoul time.",
        discussion: """
            Computed astronomically (VSOP87, nutation, aberration, ΔT); see docs/calendar.md for the accuracy.
            JSON gives each instant in UTC ("instant", …Z) and Seoul's wall-clock time beside it ("seoul", with
            "utcOffset", which has seconds where Seoul kept local mean time, +08:27:52 before April 1908).
            With '-' instead of a year, reads one year per line and writes {"year": …, "terms": […]} per line.
            """)

    @Argument(help: "A year (1900–2100), or '-' to read one per line from standard input.")
    var year: String

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if year != "-" { _ = try moments(year) }
    }

    func run() throws {
        guard year != "-" else {
            try BatchInput.run { text in
                let rows = try self.moments(text)  // checks that the line is a year
                return "{\"year\":\(Int(text)!),\"terms\":\(Self.json(rows))}"
            }
            return
        }
        let moments = try moments(year)
        if output.json {
            print(Self.json(moments))
            return
        }
        for moment in moments {
            let local = moment.seoulLocal
            let when = "\(local.prefix(10)) \(local.dropFirst(11)) (UTC\(moment.seoulOffset))"
            print("\(moment.term.koreanName) \(moment.term.hanja)  \(String(moment.term.longitude).leftPadded(3))°  \(when)")
        }
    }

    private func moments(_ text: String) throws -> [SolarTermMoment] {
        guard let year = Int(text) else { throw CLIError("'\(text)' is not a year") }
        do { return try SolarTerms.moments(in: year) } catch { throw CLIError("\(error)") }
    }

    static func json(_ moments: [SolarTermMoment]) -> String {
        let items = moments.map { moment in
            """
            {"name":"\(moment.term.koreanName)","hanja":"\(moment.term.hanja)","nameEn":"\(moment.term.englishName)",\
            "longitude":\(moment.term.longitude),"instant":"\(moment.utcISO)",\
            "seoul":"\(moment.seoulLocal)","utcOffset":"\(moment.seoulOffset)",\
            "julianEphemerisDay":\(String(format: "%.8f", moment.julianEphemerisDay))}
            """
        }
        return "[" + items.joined(separator: ",") + "]"
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
