import Diary
import Foundation
import KoreanCalendar
import Services

/// Writes RFC 5545 iCalendar text: CRLF line ends, lines folded at 75 octets without splitting a character, TEXT
/// values escaped. All-day events are DATE values; timed ones are Seoul wall-clock times written in UTC.
enum ICalendar {
    static func document(name: String, events: [FeedEvent], stamp: Date) -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Saessak//Family diary//KO", "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
            "X-WR-CALNAME:" + escape(name), "X-WR-TIMEZONE:Asia/Seoul",
        ]
        let stampText = utc(stamp)
        for event in events {
            lines.append("BEGIN:VEVENT")
            lines.append("UID:" + escape(event.uid))
            lines.append("DTSTAMP:" + stampText)
            if let time = event.time, let start = seoulToUTC(event.date, time) {
                lines.append("DTSTART:" + utc(start))
                lines.append("DTEND:" + utc(start.addingTimeInterval(3600)))
            } else {
                lines.append("DTSTART;VALUE=DATE:" + compact(event.date))
                lines.append("DTEND;VALUE=DATE:" + compact((try? event.date.adding(days: 1)) ?? event.date))
                lines.append("TRANSP:TRANSPARENT")
            }
            lines.append("SUMMARY:" + escape(event.summary))
            if let description = event.description { lines.append("DESCRIPTION:" + escape(description)) }
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// TEXT escaping (RFC 5545 §3.3.11), by Unicode scalar (a Character may fuse a mark with `;` or `,`).
    static func escape(_ text: String) -> String {
        text.replacingScalars { scalar in
            switch scalar {
            case "\\": "\\\\"
            case ";": "\\;"
            case ",": "\\,"
            case "\n": "\\n"
            case "\r": ""
            default: nil
            }
        }
    }

    /// Lines longer than 75 octets continue on the next line after a space, cut between characters.
    static func fold(_ line: String) -> String {
        var result = ""
        var length = 0
        var limit = 75
        for character in line {
            let size = String(character).utf8.count
            if length + size > limit {
                result += "\r\n "
                length = 0
                limit = 74  // the leading space counts
            }
            result.append(character)
            length += size
        }
        return result
    }

    static func compact(_ date: SolarDate) -> String { date.iso.replacingOccurrences(of: "-", with: "") }

    static func utc(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ n: Int?) -> String { String(format: "%02d", n ?? 0) }
        return "\(c.year ?? 1970)\(two(c.month))\(two(c.day))T\(two(c.hour))\(two(c.minute))\(two(c.second))Z"
    }

    static func seoulToUTC(_ date: SolarDate, _ time: ClockTime) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Today.timeZone
        return calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day, hour: time.hour, minute: time.minute))
    }
}
