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
    public let year: Int
    public let language: Language
    public let title: String
    /// The cover's photo: the child's profile photo, else the year's first photo (nil: a cover of words).
    public let cover: Photo?
    public let entries: [BookEntry]
    /// 백일 and 첫돌 in the year, for the child's book: pages of their own where they fall.
    public let milestones: [(milestone: Milestone, date: SolarDate)]
    /// The child's measurements up to the year's end, for the growth charts at the back of a child's book.
    public let growth: [GrowthMeasurement]

    public var photoCount: Int { entries.reduce(0) { $0 + $1.photos.count } }
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

    /// Every entry of `year` (about `child`, or all), oldest first, with its photos in their order.
    /// `reactions`: each entry's hearts and comments too (two reads an entry).
    public static func gather(
        family: FamilyID, child childID: ChildID?, year: Int, language: Language, reactions: Bool = false, stores: DiaryStores
    ) async throws -> BookContent {
        guard SolarDate.supportedYears.contains(year) else { throw BookError.request("year \(year) is out of range") }
        let children = try await stores.children.byID(family: family)
        let child = try childID.map { id throws(BookError) -> Child in
            guard let child = children[id] else { throw .request("no child \(id) in this family") }
            return child
        }
        let filter = TimelineFilter(childID: childID, period: .year(year))
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
        let title = switch (language, name) {
        case (.korean, let name?): "\(name)의 \(year)년"
        case (.korean, nil): "우리 가족의 \(year)년"
        case (.english, let name?): "\(name)’s \(year)"
        case (.english, nil): "Our family’s \(year)"
        }
        var growth: [GrowthMeasurement] = []
        if let child {
            growth = try await stores.growth.measurements(family: family, child: child.id).filter { $0.date.year <= year }
        }
        return BookContent(
            family: family, child: child, year: year, language: language, title: title, cover: cover, entries: printed,
            milestones: child.map { milestones(of: $0, in: year) } ?? [], growth: growth)
    }

    static func milestones(of child: Child, in year: Int) -> [(milestone: Milestone, date: SolarDate)] {
        guard let birth = child.profile.birthDate.solarDate else { return [] }
        var lunar: LunarDate?
        if case .lunar(let date) = child.profile.birthDate { lunar = date }
        return printedMilestones.compactMap { milestone in
            guard let date = try? milestone.date(born: birth, lunarBirth: lunar), date.year == year else { return nil }
            return (milestone, date)
        }
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
