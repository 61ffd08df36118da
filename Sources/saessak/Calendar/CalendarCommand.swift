import ArgumentParser
import Foundation
import KoreanCalendar

/// `saessak calendar 2026-02`: a month grid with lunar dates, solar terms and holidays.
struct CalendarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar",
        abstract: "A month grid: lunar dates (윤 for leap months), solar terms on their day, holidays in red.")

    @Argument(help: "The month, YYYY-MM.")
    var month: String

    @OptionGroup var output: OutputOptions

    func validate() throws { _ = try view() }

    func run() throws {
        let view = try view()
        if output.json {
            print(Self.json(view))
            return
        }
        let colour = isatty(STDOUT_FILENO) == 1
        print("\(view.year)년 \(view.month)월".centered(7 * 8))
        print(["일", "월", "화", "수", "목", "금", "토"].map { $0.centered(8) }.joined())
        for week in view.weeks {
            print(week.map { day in paint(String(day.date.day).centered(8), day, colour) }.joined())
            print(week.map { day in paint(day.caption.centered(8), day, colour) }.joined())
        }
        let inMonth = view.weeks.joined().filter(\.isInMonth)
        for day in inMonth {
            for holiday in day.holidays { print("  \(day.date.month)/\(day.date.day)  \(holiday.name)") }
            if let term = day.term { print("  \(day.date.month)/\(day.date.day)  \(term.term.koreanName) \(term.seoulLocal.dropFirst(11).prefix(5))") }
        }
    }

    private func view() throws -> MonthView {
        let parts = month.split(separator: "-")
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let year = Int(parts[0]), let number = Int(parts[1]) else {
            throw CLIError("'\(month)' is not a month in the form YYYY-MM")
        }
        do { return try MonthView(year: year, month: number) } catch { throw CLIError("\(error)") }
    }

    private func paint(_ text: String, _ day: MonthView.Day, _ colour: Bool) -> String {
        guard colour else { return text }
        let dim = day.isInMonth ? "" : "\u{1B}[2m"
        if day.isRedDay { return "\(dim)\u{1B}[31m\(text)\u{1B}[0m" }
        if day.isSaturday { return "\(dim)\u{1B}[34m\(text)\u{1B}[0m" }
        return day.isInMonth ? text : "\(dim)\(text)\u{1B}[0m"
    }

    static func json(_ view: MonthView) -> String {
        let weeks = view.weeks.map { week in
            "[" + week.map { day in
                let lunar = day.lunar.map { "{\"year\":\($0.year),\"month\":\($0.month),\"day\":\($0.day),\"isLeapMonth\":\($0.isLeapMonth)}" } ?? "null"
                let term = day.term.map { "{\"name\":\"\($0.term.koreanName)\",\"instant\":\"\($0.utcISO)\",\"seoul\":\"\($0.seoulLocal)\",\"utcOffset\":\"\($0.seoulOffset)\"}" } ?? "null"
                let holidays = HolidaysCommand.json(day.holidays)
                return """
                    {"date":"\(day.date.iso)","inMonth":\(day.isInMonth),"red":\(day.isRedDay),"caption":"\(day.caption)",\
                    "lunar":\(lunar),"term":\(term),"holidays":\(holidays)}
                    """
            }.joined(separator: ",") + "]"
        }
        return "{\"year\":\(view.year),\"month\":\(view.month),\"weeks\":[\(weeks.joined(separator: ","))]}"
    }
}

extension String {
    /// Width on a terminal: Hangul and other wide characters take two columns.
    var displayWidth: Int {
        unicodeScalars.reduce(0) { width, scalar in
            let wide = (0x1100...0x115F).contains(scalar.value) || (0x2E80...0xA4CF).contains(scalar.value)
                || (0xAC00...0xD7A3).contains(scalar.value) || (0xF900...0xFAFF).contains(scalar.value)
                || (0xFF00...0xFF60).contains(scalar.value)
            return width + (wide ? 2 : 1)
        }
    }

    func centered(_ width: Int) -> String {
        let padding = max(0, width - displayWidth)
        return String(repeating: " ", count: padding / 2) + self + String(repeating: " ", count: padding - padding / 2)
    }
}
