import Foundation

/// The country or territory a position lies in, outside Korea's own areas: `일본` / `Japan`, code `JP`.
public struct Country: Hashable, Sendable, Codable {
    /// ISO 3166-1 alpha-2 (`JP`, `FR`), or Natural Earth's three letters for an area with none (`CYN`, northern Cyprus).
    public let code: String
    /// As a Korean family says it (중국, 대만, 북한, 일본).
    public let korean: String
    public let english: String

    public func text(english inEnglish: Bool) -> String { inEnglish ? english : korean }
}

/// The world's countries and territories, read once from `world-countries.bin` (docs/place.md, "Outside Korea"): Natural
/// Earth's 1:10m boundaries simplified to about a kilometre, so a photo taken in Kyoto or Paris is named 일본 or 프랑스
/// with no network. Korea's own areas (`KoreanPlaces`) are asked first; this names what they do not.
public final class WorldCountries: Sendable {
    private let file: PlaceFile

    /// The data bundled with Saessak, read at the first position outside Korea (about 2 MB of memory once read).
    public static let bundled: Result<WorldCountries, PlaceDataError> = PlaceFile.bundled("world-countries.bin").flatMap { data in
        Result { () throws(PlaceDataError) in try WorldCountries(data: data) }
    }

    public init(data: Data) throws(PlaceDataError) {
        file = try PlaceFile(data: data, cell: 10_000_000)  // 1°
        for area in file.areas where Self.code(area.code) == nil || file.name(area.korean.0) == nil || file.name(area.english.0) == nil {
            throw PlaceDataError(description: "a country without its code or names")
        }
    }

    /// How many countries and territories the data holds.
    public var count: Int { file.areas.count }

    /// The country at a position, or nil at sea (or within about a kilometre of a coast, where the simplified
    /// boundaries may leave it out).
    public func country(latitude: Double, longitude: Double) -> Country? {
        guard let area = file.area(latitude: latitude, longitude: longitude), let code = Self.code(area.code),
            let korean = file.name(area.korean.0), let english = file.name(area.english.0)
        else { return nil }
        return Country(code: code, korean: korean, english: english)
    }

    /// The code's letters from the bytes of `value`, first letter highest; nil unless two or three capital letters.
    static func code(_ value: UInt64) -> String? {
        var letters: [UInt8] = []
        var rest = value
        while rest != 0 {
            letters.insert(UInt8(truncatingIfNeeded: rest), at: 0)
            rest >>= 8
        }
        let capitals = UInt8(ascii: "A")...UInt8(ascii: "Z")
        guard (2...3).contains(letters.count), letters.allSatisfy({ capitals.contains($0) }) else { return nil }
        return String(decoding: letters, as: UTF8.self)
    }
}
