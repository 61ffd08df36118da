import KoreanCalendar

/// Which entries a timeline shows. Every field narrows; all nil shows the whole family's diary.
public struct TimelineFilter: Hashable, Sendable {
    public var childID: ChildID?
    public var tag: String?
    public var period: Period?

    public init(childID: ChildID? = nil, tag: String? = nil, period: Period? = nil) {
        self.childID = childID
        self.tag = tag
        self.period = period
    }

    /// A filter as a person asks for it — the API's query, the timeline page's links, `saessak entries list`: a
    /// month (`YYYY-MM`) or else a year narrows the period. Throws naming the field that is wrong.
    public init(childID: ChildID?, tag: String?, month: String?, year: Int?) throws(ValidationError) {
        self.init(childID: childID, tag: tag)
        if let month {
            period = .month(try Validate.field("month") { try YearMonth(iso: month) })
        } else if let year {
            guard SolarDate.supportedYears.contains(year) else { throw ValidationError(field: "year", "\(year) is out of range") }
            period = .year(year)
        }
    }

    /// A calendar year, one month of it, one day, or the days from one date through another.
    public enum Period: Hashable, Sendable {
        case year(Int)
        case month(YearMonth)
        case day(SolarDate)
        case days(from: SolarDate, through: SolarDate)

        /// The half-open range of local date-times the period covers.
        public var bounds: (from: String, before: String) {
            switch self {
            case .year(let year): (SolarDate.pad4(year), SolarDate.pad4(year + 1))
            case .month(let month): (month.iso, month.next.iso)
            // "YYYY-MM-DDT…" sorts after "YYYY-MM-DD" and before the next day's.
            case .day(let date): (date.iso, (try? date.adding(days: 1))?.iso ?? date.iso + "U")
            case .days(let first, let last): (first.iso, (try? last.adding(days: 1))?.iso ?? last.iso + "U")
            }
        }
    }
}

/// A month of a year, `YYYY-MM`: the unit the timeline is grouped by.
public struct YearMonth: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int

    public init(year: Int, month: Int) throws(ValidationError) {
        guard SolarDate.supportedYears.contains(year), (1...12).contains(month) else {
            throw ValidationError(field: "month", "\(year)-\(month) is not a month")
        }
        self.year = year
        self.month = month
    }

    public init(_ date: SolarDate) {
        year = date.year
        month = date.month
    }

    public init(iso text: String, field: String = "month") throws(ValidationError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1]), (1...12).contains(month), year >= 1
        else { throw ValidationError(field: field, "'\(text)' is not a month in the form YYYY-MM") }
        self.year = year
        self.month = month
    }

    public var iso: String { "\(SolarDate.pad4(year))-\(month < 10 ? "0" : "")\(month)" }
    public var description: String { iso }
    public var next: YearMonth {
        month == 12 ? YearMonth(unchecked: year + 1, 1) : YearMonth(unchecked: year, month + 1)
    }

    private init(unchecked year: Int, _ month: Int) {
        self.year = year
        self.month = month
    }

    public static func < (lhs: YearMonth, rhs: YearMonth) -> Bool { (lhs.year, lhs.month) < (rhs.year, rhs.month) }
}

/// Entries of one month, newest first, as the timeline shows them under "2026년 11월".
public struct MonthSection<Item: Sendable>: Sendable {
    public let month: YearMonth
    public var items: [Item]

    /// Groups items that are already sorted newest first into consecutive month sections.
    public static func group(_ items: [Item], by month: (Item) -> YearMonth) -> [MonthSection] {
        var sections: [MonthSection] = []
        for item in items {
            let key = month(item)
            if sections.last?.month == key {
                sections[sections.count - 1].items.append(item)
            } else {
                sections.append(MonthSection(month: key, items: [item]))
            }
        }
        return sections
    }
}

extension SolarDate {
    static func pad4(_ year: Int) -> String {
        let digits = String(year)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
