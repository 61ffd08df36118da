import Foundation

/// A day remembered every year on a solar or lunar month/day (leap-month aware), for the family or one child.
/// Child birthdays are not anniversaries: they are derived from the child's profile.
public struct Anniversary: Hashable, Sendable {
    public let id: AnniversaryID
    public let familyID: FamilyID
    public var details: AnniversaryDetails
    public let createdAt: Date
    public var modifiedAt: Date

    public init(
        id: AnniversaryID = AnniversaryID(), familyID: FamilyID, details: AnniversaryDetails, createdAt: Date,
        modifiedAt: Date
    ) {
        self.id = id
        self.familyID = familyID
        self.details = details
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
    }
}

public struct AnniversaryDetails: Hashable, Sendable {
    public var name: String
    public var calendar: CalendarKind
    public var month: Int
    public var day: Int
    /// Only for lunar anniversaries: the day is in the leap month (윤달) of that number.
    public var isLeapMonth: Bool
    /// Shown in red like a public holiday (a family's own day off, 제사).
    public var isHoliday: Bool
    /// nil: the whole family's.
    public var childID: ChildID?

    public init(
        name: String, calendar: CalendarKind, month: Int, day: Int, isLeapMonth: Bool = false, isHoliday: Bool = false,
        childID: ChildID? = nil
    ) throws(ValidationError) {
        self.name = try Validate.requiredText(name, field: "name", maxLength: EntryContent.maxTitleLength)
        guard (1...12).contains(month) else { throw ValidationError(field: "month", .monthRange(got: month)) }
        // Solar: the longest the month can be (29 February is allowed; it shows on 28 February in common years).
        // Lunar: months have 29 or 30 days; a day 30 missing in some year is handled when occurrences are computed.
        let longest = calendar == .lunar ? 30 : [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...longest).contains(day) else {
            throw ValidationError(field: "day", .dayRange(maximum: longest, lunar: calendar == .lunar, month: month, got: day))
        }
        guard !isLeapMonth || calendar == .lunar else {
            throw ValidationError(field: "isLeapMonth", "only a lunar anniversary can be in a leap month")
        }
        self.calendar = calendar
        self.month = month
        self.day = day
        self.isLeapMonth = isLeapMonth
        self.isHoliday = isHoliday
        self.childID = childID
    }
}
