import Foundation
import KoreanCalendar

/// An old diary kept as plain text: entries split at date headings (`2010년 8월 15일`, `2010.8.15`, `2010-08-15`,
/// `# 2010-08-15`, with or without a weekday after them), or one file per day dated by its name.
public enum TextDiary {
    /// One day's text, with where it came from.
    public struct Day: Hashable, Sendable {
        public let date: SolarDate
        /// The first non-empty line after the heading (shortened), or the date when the day has no text.
        public let title: String
        public let body: String
        /// The line of the heading (1-based), or nil for a whole file dated by its name.
        public let line: Int?
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case noDate(file: String)
        case badDate(file: String, line: Int, text: String)

        public var description: String {
            switch self {
            case .noDate(let file): "\(file): no date heading, and the file name is not a date (YYYY-MM-DD)"
            case .badDate(let file, let line, let text): "\(file), line \(line): '\(text)' is not a date"
            }
        }
    }

    /// A heading: a whole line that is a date, optionally after `#`s and before a weekday in any usual form.
    private static let heading = try! NSRegularExpression(
        pattern: #"^\s*#*\s*(\d{4})\s*(?:년\s*|[.\-/]\s*)(\d{1,2})\s*(?:월\s*|[.\-/]\s*)(\d{1,2})\s*일?\s*\.?\s*(?:\(?\s*[월화수목금토일](?:요일)?\s*\)?|\(?\s*(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*\.?\s*\)?)?\s*$"#)

    /// Splits a file's text into days. Text before the first heading belongs to no day: it is reported as skipped
    /// (`preamble`). A file without any heading is one day, dated by its name.
    public static func days(in text: String, fileName: String) throws(Failure) -> (days: [Day], preamble: String?) {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var days: [Day] = []
        var current: (date: SolarDate, line: Int, lines: [String])?
        var preamble: [String] = []
        func close() {
            guard let open = current else { return }
            days.append(day(open.date, lines: open.lines, line: open.line))
        }
        for (index, line) in lines.enumerated() {
            let range = NSRange(line.startIndex..., in: line)
            if let match = heading.firstMatch(in: line, range: range) {
                let number = { (group: Int) in Int(line[Range(match.range(at: group), in: line)!])! }
                guard let date = try? SolarDate(year: number(1), month: number(2), day: number(3)) else {
                    throw .badDate(file: fileName, line: index + 1, text: line.trimmingCharacters(in: .whitespaces))
                }
                close()
                current = (date, index + 1, [])
            } else if current != nil {
                current!.lines.append(line)
            } else {
                preamble.append(line)
            }
        }
        close()
        let leftover = preamble.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        if days.isEmpty {
            guard let date = dateOfName(fileName) else { throw .noDate(file: fileName) }
            return ([day(date, lines: preamble, line: nil)], nil)
        }
        return (days, leftover.isEmpty ? nil : leftover)
    }

    private static func day(_ date: SolarDate, lines: [String], line: Int?) -> Day {
        let body = lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        let first = body.split(separator: "\n").first.map { Validate.prefix($0.trimmingCharacters(in: .whitespaces), scalars: 60) }
        return Day(date: date, title: first.flatMap { $0.isEmpty ? nil : $0 } ?? date.iso, body: body, line: line)
    }

    /// `2010-08-15.txt`, `2010_08_15 일기.txt`, `20100815.txt`.
    static func dateOfName(_ name: String) -> SolarDate? {
        let digits = name.prefix { $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }.filter(\.isNumber)
        guard digits.count >= 8 else { return nil }
        let text = String(digits.prefix(8))
        return try? SolarDate(
            year: Int(text.prefix(4))!, month: Int(text.dropFirst(4).prefix(2))!, day: Int(text.dropFirst(6).prefix(2))!)
    }
}
