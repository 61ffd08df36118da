import Diary
import Places
import Foundation
import KoreanCalendar

/// An entry as the API and `saessak entries list --json` show it.
public struct EntryResource: Encodable {
    let id: EntryID
    let title: String
    let body: String
    let date: String
    let timeZone: String
    let childIds: [ChildID]
    let tags: [String]
    let place: EntryPlace?
    let weather: String?
    let photoIds: [PhotoID]
    let createdAt: Date
    let modifiedAt: Date
    /// Who wrote it; absent for imports and entries older than authors.
    let authorId: UserID?
    /// Each tagged child's age on the entry's day, for those born by then; absent when none was.
    let ages: [ChildAgeResource]?

    /// `children`: the family's children by ID, for their ages (none given: no ages).
    public init(_ entry: Entry, children: [ChildID: Child] = [:]) {
        let content = entry.content
        id = entry.id
        title = content.title
        body = content.body
        date = content.date.iso
        timeZone = content.timeZone
        childIds = content.childIDs
        tags = content.tags
        place = content.place.map(EntryPlace.init)
        weather = content.weather
        photoIds = entry.photoIDs
        createdAt = entry.createdAt
        modifiedAt = entry.modifiedAt
        authorId = entry.authorID
        ages = ChildAgeResource.ages(content.childIDs, children, on: content.date.date)
    }
}

/// A child's age on a day, as the pages write it: `생후 100일`, `돌`, `만 4세` (`day 100`, `first birthday`, `age 4`).
public struct ChildAgeResource: Encodable {
    let childId: ChildID
    let korean: String
    let english: String

    /// The ages on `day` of those of `ids` born by then; nil when none was.
    static func ages(_ ids: [ChildID], _ children: [ChildID: Child], on day: SolarDate) -> [ChildAgeResource]? {
        let ages = ids.compactMap { id in
            children[id]?.age(on: day).map { ChildAgeResource(childId: id, korean: $0.korean, english: $0.english) }
        }
        return ages.isEmpty ? nil : ages
    }
}



/// The timeline: entries grouped by month, newest first.
public struct TimelineResponse: Encodable {
    public struct Section: Encodable {
        let month: String
        let items: [EntryResource]

        public init(month: String, items: [EntryResource]) {
            self.month = month
            self.items = items
        }
    }

    let sections: [Section]
    let next: String?

    public init(sections: [Section], next: String?) {
        self.sections = sections
        self.next = next
    }

    enum CodingKeys: CodingKey { case sections, next }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sections, forKey: .sections)
        try container.encode(next, forKey: .next)
    }
}

/// An entry's place as the API gives it: what was typed or taken from the first photo, and the Korean place its
/// coordinates lie in (`region`, found on the server from the bundled data; absent outside Korea), or outside Korea
/// the country (`country`: 일본, Japan, JP).
public struct EntryPlace: Encodable, Sendable {
    public let name: String?
    public let latitude: Double?
    public let longitude: Double?
    public let region: KoreanPlace?
    public let country: Country?

    public init(_ place: Place) {
        name = place.name
        latitude = place.latitude
        longitude = place.longitude
        (region, country) = place.found
    }
}

public struct PlaceBody: Codable, Sendable {
    public let name: String?
    public let latitude: Double?
    public let longitude: Double?

    public init(name: String?, latitude: Double?, longitude: Double?) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// An earlier version of an entry, as `GET /entries/{id}/versions` and `saessak entries versions` give it.
public struct EntryVersionResource: Encodable {
    let number: Int
    let title: String
    let body: String
    let date: String
    let timeZone: String
    let childIds: [ChildID]
    let tags: [String]
    let place: EntryPlace?
    let weather: String?
    let photoIds: [PhotoID]
    /// When this version was saved and by whom (absent: not known, or an account since deleted).
    let savedAt: Date
    let savedBy: UserID?
    let savedByName: String?
    /// The edit that replaced it.
    let replacedAt: Date
    let replacedBy: UserID?

    public init(_ version: EntryVersion) {
        let content = version.content
        number = version.number
        title = content.title
        body = content.body
        date = content.date.iso
        timeZone = content.timeZone
        childIds = content.childIDs
        tags = content.tags
        place = content.place.map(EntryPlace.init)
        weather = content.weather
        photoIds = version.photoIDs
        savedAt = version.savedAt
        savedBy = version.savedBy
        savedByName = version.savedByName
        replacedAt = version.replacedAt
        replacedBy = version.replacedBy
    }
}
