import Diary
import Persistence
import Places
import Foundation
import Services
import KoreanCalendar

// What the pages show of each kind of record: cards and lines, made from domain values in the reader's language.

/// Addresses of the pictures the pages show (served by the photo routes, which check the family).
enum PhotoLinks {
    static func thumbnail(_ photo: PhotoID, large: Bool = false) -> String {
        "/api/v1/photos/\(photo)/thumbnail?size=\(large ? "large" : "small")"
    }

    static func original(_ photo: PhotoID) -> String { "/api/v1/photos/\(photo)/original" }

    static func video(_ photo: PhotoID) -> String { "/api/v1/photos/\(photo)/video" }

    /// `▶ 0:23`: how thumbnails of a clip show it is one, and how long it runs.
    static func badge(_ video: VideoFacts) -> String { "▶ " + Duration.clock(Double(video.durationMilliseconds) / 1000) }

    static func profile(_ child: ChildID) -> String { "/api/v1/children/\(child)/photo" }
}

/// An entry as the lists show it: a card with its date, first photo and the start of its text.
struct EntryCard {
    let id: String
    let title: String
    let date: String
    let iso: String
    let excerpt: String
    let tags: [String]
    let thumbnail: String?
    /// `▶ 0:23` when the first item is a video clip.
    let videoBadge: String?
    /// Photos beyond none (nil: no photo; mustache shows a section for any number).
    let photoCount: Int?
    let children: String?
    /// Where: the name typed, or the 시군구 and 읍면동 its coordinates lie in (in the reader's language).
    let place: String?
    /// Written by another member since this one last looked (the timeline marks it).
    var isNew = false

    /// `videos`: the clips among the entries' first photos (`EntryCard.videos`).
    /// `ages`: the children with their birth dates, for `하늘 생후 100일` instead of the name alone.
    init(_ entry: Entry, language: Language, names: [ChildID: String], videos: [PhotoID: VideoFacts] = [:], ages: ChildAges? = nil) {
        let content = entry.content
        id = entry.id.description
        title = content.title
        date = "\(language.shortDate(content.date.date)) \(language.time(content.date.time))"
        iso = content.date.iso
        excerpt = Self.excerpt(content.body)
        tags = content.tags
        thumbnail = entry.photoIDs.first.map { PhotoLinks.thumbnail($0) }
        videoBadge = entry.photoIDs.first.flatMap { videos[$0] }.map(PhotoLinks.badge)
        photoCount = entry.photoIDs.isEmpty ? nil : entry.photoIDs.count
        let named = content.childIDs.compactMap { names[$0] }
        children = ages?.line(content.childIDs, on: content.date.date, language: language) ?? (named.isEmpty ? nil : named.joined(separator: ", "))
        place = content.place.flatMap { $0.name ?? PlaceText.short($0.found, language: language) }
    }
}

extension EntryCard {
    /// The first 160 characters of `body`. A text of at most 160 scalars has at most 160 characters and is taken whole
    /// without walking its grapheme clusters (Hangul goes Swift's slow way there: 3 % of a timeline under load). The
    /// scalars are counted as the UTF-8 bytes that start one, and only as far as 161: walking them as scalars was
    /// 1.5 % of a busy timeline.
    static func excerpt(_ body: String) -> String {
        guard body.utf8.count > 160 else { return body }
        var text = body
        let isShort = text.withUTF8 { bytes in
            var scalars = 0
            for byte in bytes where byte & 0xC0 != 0x80 {
                scalars += 1
                if scalars > 160 { return false }
            }
            return true
        }
        return isShort ? body : String(body.prefix(160))
    }

    /// The clips among the first photos of `entries` (one query), for their cards' `▶ 0:23`.
    static func videos(_ entries: [Entry], family: FamilyID, store: any PhotoStore) async throws -> [PhotoID: VideoFacts] {
        try await store.videos(family: family, among: entries.compactMap(\.photoIDs.first))
    }
}

/// A place found from coordinates, as pages write it.
enum PlaceText {
    /// `마포구 연남동`, or `Yeonnam-dong, Mapo-gu`: the card's few words (the 시도 when there is nothing finer).
    static func short(_ found: (region: KoreanPlace?, country: Country?), language: Language) -> String? {
        guard let place = found.region else { return found.country?.text(english: language == .english) }
        return short(place, language: language)
    }

    static func short(_ place: KoreanPlace, language: Language) -> String {
        let names = language == .korean ? place.korean : place.english
        let parts = [names.sigungu, names.eupmyeondong].compactMap { $0 }
        if parts.isEmpty { return names.sido }
        return language == .korean ? parts.joined(separator: " ") : parts.reversed().joined(separator: ", ")
    }
}

/// A child's profile card: ages, signs and both birthdays.
struct ChildCard {
    let id: String
    let name: String
    let nickname: String?
    let photo: String?
    let dayCount: String?
    let facts: [String]
    let birthdays: [String]

    init(_ child: Child, today: SolarDate, language: Language) {
        let profile = child.profile
        let facts = ChildFacts(birthDate: profile.birthDate, today: today)
        id = child.id.description
        name = profile.name
        nickname = profile.nickname
        photo = child.photoID.map { _ in PhotoLinks.profile(child.id) }
        var lines: [String] = []
        if let age = facts.age {
            dayCount = "D+\(age.days)"
            lines.append(language == .korean ? "\(age.months)개월" : "\(age.months) months")
            lines.append(language == .korean ? "만 \(age.years)세" : "age \(age.years)")
        } else {
            dayCount = nil
        }
        if let animal = facts.zodiacAnimal {
            lines.append(language == .korean ? "\(animal.koreanName)띠" : "year of the \(animal.rawValue)")
        }
        if let sign = facts.starSign { lines.append(language == .korean ? sign.koreanName : sign.rawValue.capitalized) }
        if let stone = facts.birthstone { lines.append(language == .korean ? stone.koreanName : stone.rawValue.capitalized) }
        self.facts = lines
        var birthdays: [String] = []
        if let solar = facts.solarBirthDate { birthdays.append(language.longDate(solar)) }
        if let lunar = facts.lunarBirthDate { birthdays.append(language.lunarDate(lunar, withYear: true)) }
        self.birthdays = birthdays
    }
}

