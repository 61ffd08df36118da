import Foundation

/// The parts of a Day One JSON export Saessak reads (a journal file such as `Journal.json` in the export's ZIP).
/// Every field is optional in practice; unknown fields are ignored.
struct DayOneJournal: Decodable {
    let entries: [DayOneEntry]
}

struct DayOneEntry: Decodable {
    let uuid: String?
    /// ISO 8601 in UTC, e.g. `2020-05-05T03:12:00Z`.
    let creationDate: String?
    /// IANA name of the zone the entry was written in.
    let timeZone: String?
    /// Markdown with Day One's backslash escapes and `![](dayone-moment://IDENTIFIER)` photo references.
    let text: String?
    let starred: Bool?
    let tags: [String]?
    let location: Location?
    let weather: Weather?
    let photos: [Photo]?
    /// Video clips, described as photos are; their files are `videos/<md5>.<type>`.
    let videos: [Photo]?

    struct Location: Decodable {
        let placeName: String?
        let localityName: String?
        let administrativeArea: String?
        let country: String?
        let latitude: Double?
        let longitude: Double?
    }

    struct Weather: Decodable {
        let conditionsDescription: String?
        let temperatureCelsius: Double?
    }

    struct Photo: Decodable {
        let identifier: String?
        /// Names the file: `photos/<md5>.<type>` (`videos/…` for a clip).
        let md5: String?
        let type: String?
        let orderInEntry: Int?
    }
}
