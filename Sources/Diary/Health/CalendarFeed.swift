import KoreanCalendar

/// One event of a family's calendar feed: all-day on `date`, or at `time` (Seoul) when known. `uid` is stable, so a
/// calendar app that reads the feed again updates the event instead of adding it twice.
public struct FeedEvent: Hashable, Sendable {
    public let uid: String
    public let date: SolarDate
    public let time: ClockTime?
    public let summary: String
    public let description: String?
}

/// What a family's calendar feed holds for a span of years: birthdays (lunar ones as the concrete solar dates of
/// each year — RRULE cannot say "lunar 1/15"), milestones, anniversaries, vaccination due dates, events, and public
/// holidays when asked.
public enum CalendarFeed {
    /// The default span: from the start of last year to the end of the tenth year ahead.
    public static func defaultYears(around today: SolarDate) -> ClosedRange<Int> { (today.year - 1)...(today.year + 10) }

    public static func events(
        years: ClosedRange<Int>, children: [Notices.ChildInput], anniversaries: [Anniversary], events: [Event],
        holidays: [Holiday]
    ) -> [FeedEvent] {
        guard let first = try? SolarDate(year: years.lowerBound, month: 1, day: 1),
            let last = try? SolarDate(year: years.upperBound, month: 12, day: 31)
        else { return [] }
        let span = first...last
        var feed: [FeedEvent] = []
        for input in children {
            let child = input.child
            let name = child.profile.name
            let facts = ChildFacts(birthDate: child.profile.birthDate, today: first)
            guard let birth = facts.solarBirthDate else { continue }
            let lunarBirth: LunarDate? = child.profile.birthDate.calendar == .lunar ? facts.lunarBirthDate : nil
            for milestone in Milestone.allCases {
                if let date = try? milestone.date(born: birth, lunarBirth: lunarBirth), span.contains(date) {
                    feed.append(FeedEvent(
                        uid: "milestone-\(child.id)-\(milestone.rawValue)@saessak", date: date, time: nil,
                        summary: "\(name) \(milestone.koreanName)", description: milestone.englishName))
                }
            }
            for year in (years.lowerBound - 1)...years.upperBound {
                let date: SolarDate?
                let age: Int
                if let lunarBirth {
                    date = try? Birthday.lunar(lunarBirth, inLunarYear: year)
                    age = year - lunarBirth.year
                } else {
                    date = Birthday.solar(birth, in: year)
                    age = year - birth.year
                }
                guard age >= 2, let date, span.contains(date) else { continue }
                feed.append(FeedEvent(
                    uid: "birthday-\(child.id)-\(year)@saessak", date: date, time: nil,
                    summary: "\(name) \(lunarBirth == nil ? "생일" : "음력 생일") (만 \(age)세)", description: nil))
            }
            for dose in input.plan where dose.status != .given && dose.status != .skipped && span.contains(dose.start) {
                feed.append(FeedEvent(
                    uid: "vaccination-\(child.id)-\(dose.vaccine.rawValue)-\(dose.number)@saessak", date: dose.start, time: nil,
                    summary: "\(name) 예방접종 \(dose.vaccine.rawValue.uppercased()) \(dose.number)차",
                    description: "\(dose.start.iso) – \(dose.end.iso)"))
            }
        }
        for anniversary in anniversaries {
            for year in years {
                guard let day = try? SolarDate(year: year, month: 6, day: 30),
                    let end = try? SolarDate(year: year, month: 12, day: 31)
                else { continue }
                // The occurrence of this year's calendar year (a lunar date may belong to the next or previous
                // lunar year): search the whole solar year.
                let start = (try? SolarDate(year: year, month: 1, day: 1)) ?? day
                for date in Notices.occurrences(anniversary.details, around: start, last: end) where date.year == year {
                    feed.append(FeedEvent(
                        uid: "anniversary-\(anniversary.id)-\(year)@saessak", date: date, time: nil,
                        summary: anniversary.details.name, description: nil))
                }
            }
        }
        for event in events where span.contains(event.details.date) {
            feed.append(FeedEvent(
                uid: "event-\(event.id)@saessak", date: event.details.date, time: event.details.time,
                summary: event.details.title, description: event.details.notes))
        }
        for holiday in holidays where span.contains(holiday.date) {
            feed.append(FeedEvent(
                uid: "holiday-\(holiday.date.iso)@saessak", date: holiday.date, time: nil, summary: holiday.name,
                description: holiday.nameEn))
        }
        var seen = Set<String>()
        return feed.filter { seen.insert($0.uid).inserted }.sorted { ($0.date, $0.uid) < ($1.date, $1.uid) }
    }
}
