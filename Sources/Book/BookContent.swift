import Diary
import Foundation
import KoreanCalendar
import Services

/// What a book is made of: who and which year, and each entry with its photos and the lines printed above it.
/// Gathered from the stores once; the printer reads photos' originals as it reaches them.
public struct BookContent: Sendable {
    public let family: FamilyID
    /// The child the book is about, or nil for the whole family.
    public let child: Child?
    public let period: BookPeriod
    public let language: Language
    public let title: String
    /// The cover's photo: the child's profile photo, else the year's first photo (nil: a cover of words).
    public let cover: Photo?
    public let entries: [BookEntry]
    /// 백일 and 첫돌 in the period, for the child's book: pages of their own where they fall.
    public let milestones: [(milestone: Milestone, date: SolarDate)]
    /// The child's measurements up to the year's end, for the growth charts at the back of a child's book.
    public let growth: [GrowthMeasurement]

    public var photoCount: Int { entries.reduce(0) { $0 + $1.photos.count } }

    /// A book or archive of no entries is refused, naming the days, in the book's language.
    func requireEntries() throws(BookError) {
        guard entries.isEmpty else { return }
        let days = period.name(language)
        throw .request(language == .korean ? "\(days)에 쓴 일기가 없습니다" : "no entries in \(days)")
    }
}

/// One entry as printed.
public struct BookEntry: Sendable {
    public let entry: Entry
    public let photos: [Photo]
    /// 3월 1일 일요일 · 음력 1월 13일
    public let dateLine: String
    /// 하늘 생후 100일 · 바다 3세 (nil when no child has an age that day)
    public let ageLine: String?
    /// The place's name and the weather: 서울숲 · 맑음 (never a coordinate).
    public let placeLine: String?
    /// The date under each photo: the day it was taken when the camera says so, else the entry's.
    public let photoCaptions: [String]
    /// Who gave the entry a heart, and its comments (author, text), when the book was asked to carry them.
    public var hearts: [String] = []
    public var comments: [(author: String?, text: String)] = []

    public var date: SolarDate { entry.content.date.date }
}

extension BookContent {
    /// The milestones a book of a year shows (the others are in the diary's own notices).
    static let printedMilestones: [Milestone] = [.baegil, .firstBirthday]

    /// Every entry of `period` (about `child`, or all), oldest first, with its photos in their order.
    /// `reactions`: each entry's hearts and comments too (two reads an entry).
    public static func gather(
        family: FamilyID, child childID: ChildID?, period: BookPeriod, language: Language, reactions: Bool = false, stores: DiaryStores
    ) async throws -> BookContent {
        let children = try await stores.children.byID(family: family)
        let child = try childID.map { id throws(BookError) -> Child in
            guard let child = children[id] else { throw .request("no child \(id) in this family") }
            return child
        }
        let filter = TimelineFilter(childID: childID, period: period.filter)
        var entries = try await Page.all { cursor, limit in
            try await stores.entries.list(family: family, filter: filter, after: cursor, limit: limit)
        }
        entries.sort { ($0.content.date, $0.createdAt) < ($1.content.date, $1.createdAt) }

        var photos: [EntryID: [Photo]] = [:]
        for start in stride(from: 0, to: entries.count, by: 200) {
            let ids = entries[start..<min(entries.count, start + 200)].map(\.id)
            photos.merge(try await stores.photos.photos(family: family, entries: ids)) { first, _ in first }
        }
        let ages = ChildAges(Array(children.values))
        var printed = entries.map { entry in
            BookEntry(entry: entry, photos: photos[entry.id] ?? [], language: language, ages: ages)
        }
        if reactions {
            for index in printed.indices {
                let target = ReactionTarget.entry(printed[index].entry.id)
                printed[index].hearts = try await stores.reactions.hearts(family: family, on: target).map(\.userName)
                printed[index].comments = try await stores.reactions.comments(family: family, on: target).map { ($0.authorName, $0.text) }
            }
        }

        var cover: Photo?
        if let child, let profile = try await stores.photos.profilePhoto(family: family, child: child.id), profile.video == nil {
            cover = profile
        }
        cover = cover ?? printed.lazy.flatMap(\.photos).first { $0.video == nil }

        let name = child.map { $0.profile.nickname ?? $0.profile.name }
        let when = period.name(language)
        let title = switch (language, name) {
        case (.korean, let name?): "\(name)의 \(when)"
        case (.korean, nil): "우리 가족의 \(when)"
        case (.english, let name?): "\(name)’s \(when)"
        case (.english, nil): "Our family’s \(when)"
        }
        var growth: [GrowthMeasurement] = []
        if let child {
            growth = try await stores.growth.measurements(family: family, child: child.id).filter { $0.date <= period.last }
        }
        return BookContent(
            family: family, child: child, period: period, language: language, title: title, cover: cover, entries: printed,
            milestones: child.map { milestones(of: $0, in: period) } ?? [], growth: growth)
    }

    static func milestones(of child: Child, in period: BookPeriod) -> [(milestone: Milestone, date: SolarDate)] {
        guard let birth = child.profile.birthDate.solarDate else { return [] }
        var lunar: LunarDate?
        if case .lunar(let date) = child.profile.birthDate { lunar = date }
        return printedMilestones.compactMap { milestone in
            guard let date = try? milestone.date(born: birth, lunarBirth: lunar), period.contains(date) else { return nil }
            return (milestone, date)
        }
    }
}

/// The days a book holds: a calendar year, or the days from one date through another (a school year, the first
/// 365 days).
public struct BookPeriod: Hashable, Sendable {
    public let first: SolarDate
    public let last: SolarDate
    /// The year, when the period is one whole calendar year.
    public let year: Int?

    /// Periods longer than this are refused: a book is a year or so, and the archive of everything is the backup's.
    public static let longestDays = 3 * 366 + 1

    /// The days from `first` through `last`, in order and at most `longestDays`.
    public init(from first: SolarDate, through last: SolarDate) throws(BookError) {
        guard first <= last else { throw .request("the period starts (\(first.iso)) after it ends (\(last.iso))") }
        guard first.days(until: last) < Self.longestDays else {
            throw .request("the period from \(first.iso) to \(last.iso) is longer than three years")
        }
        self.first = first
        self.last = last
        year = nil
    }

    /// A calendar year between 1900 and 2100.
    public init(year: Int) throws(BookError) {
        guard (1900...2100).contains(year), let first = try? SolarDate(year: year, month: 1, day: 1),
            let last = try? SolarDate(year: year, month: 12, day: 31)
        else { throw .request("year \(year) is not between 1900 and 2100") }
        self.first = first
        self.last = last
        self.year = year
    }

    public func contains(_ date: SolarDate) -> Bool { first <= date && date <= last }

    var filter: TimelineFilter.Period {
        if let year { return .year(year) }
        return .days(from: first, through: last)
    }

    /// 2026년, or 2026년 3월 1일 – 2027년 2월 28일 (2026, or 1 March 2026 – 28 February 2027).
    public func name(_ language: Language) -> String {
        if let year { return language == .korean ? "\(year)년" : "\(year)" }
        return [first, last].map { date in
            language == .korean
                ? "\(date.year)년 \(date.month)월 \(date.day)일" : "\(date.day) \(language.monthTitle(year: date.year, month: date.month))"
        }.joined(separator: " – ")
    }
}

extension BookEntry {
    init(entry: Entry, photos: [Photo], language: Language, ages: ChildAges) {
        self.entry = entry
        self.photos = photos
        let date = entry.content.date.date
        let lunar = (try? LunarDate.from(date)).map { language.lunarDate($0) }
        dateLine = [language.dayAndWeekday(date), lunar].compactMap { $0 }.joined(separator: " · ")
        ageLine = ages.line(entry.content.childIDs, on: date, language: language)
        let place = entry.content.place?.name.flatMap { $0.isEmpty ? nil : $0 }
        let weather = entry.content.weather.flatMap { $0.isEmpty ? nil : $0 }
        placeLine = [place, weather].compactMap { $0 }.isEmpty ? nil : [place, weather].compactMap { $0 }.joined(separator: " · ")
        photoCaptions = photos.map { photo in
            let day = photo.takenDay ?? date
            let age = entry.content.childIDs.first.flatMap { ages.label($0, on: day, language: language) }
            // A photo from another year (an old one added later) says which.
            return [day.year == date.year ? language.dayAndWeekday(day) : language.longDate(day), age].compactMap { $0 }.joined(separator: " · ")
        }
    }
}

extension Language {
    /// A day within its year: 3월 1일 일요일, or Sunday 1 March.
    func dayAndWeekday(_ date: SolarDate) -> String {
        let long = longDate(date)
        switch self {
        case .korean: return String(long.drop { $0 != " " }.dropFirst())
        case .english:
            // "Sunday, 1 March 2026" → "Sunday 1 March"
            let parts = long.replacingOccurrences(of: ",", with: "").split(separator: " ")
            return parts.dropLast().joined(separator: " ")
        }
    }
}
