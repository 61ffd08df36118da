/// How old someone born on a solar date is on another date, the three ways Korean parents count.
public struct Age: Hashable, Sendable {
    /// D+N, counting the birth day as day 1 (the birth day is D+1).
    public let days: Int
    /// Full months completed.
    public let months: Int
    /// 만 나이: full years completed (official in Korea since 2023-06-28).
    public let years: Int

    /// The age on `date`, or nil before the birth.
    ///
    /// A month or year is complete on the same day number of the later month; when that month lacks the day
    /// (born 31 January, or 29 February in a common year) it is complete on the 1st of the month after, as the
    /// Korean Civil Act counts periods. So a 29 February child turns one on 1 March in common years.
    public init?(born birth: SolarDate, on date: SolarDate) {
        guard birth <= date else { return nil }
        days = birth.days(until: date) + 1
        let roughMonths = (date.year - birth.year) * 12 + (date.month - birth.month)
        var months = max(0, roughMonths)
        while months > 0 && birth.addingMonthsRollingForward(months) > date { months -= 1 }
        self.months = months
        years = months / 12
    }
}
