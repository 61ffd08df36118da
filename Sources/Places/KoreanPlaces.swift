import Foundation

/// The Korean administrative place a position lies in: 시도, 시군구 and 읍면동, in Korean and romanised.
public struct KoreanPlace: Hashable, Sendable, Codable {
    public struct Names: Hashable, Sendable, Codable {
        public let sido: String
        public let sigungu: String?
        public let eupmyeondong: String?
    }

    public let korean: Names
    /// The Revised Romanization (the 시도 as they name themselves in English: Seoul, Gyeonggi-do, Jeonbuk State).
    public let english: Names
    /// The legal code of the area found: a 읍면동's 8 digits (시도 2, 시군구 3, 읍면동 3), or a 리's 10, a 시군구's 5, a
    /// 시도's 2 where no 읍면동 covers the point.
    public let code: String?

    /// `서울특별시 마포구 연남동`, or in English `Yeonnam-dong, Mapo-gu, Seoul`.
    public func text(english inEnglish: Bool) -> String {
        if inEnglish {
            return [english.eupmyeondong, english.sigungu, english.sido].compactMap { $0 }.joined(separator: ", ")
        }
        return [korean.sido, korean.sigungu, korean.eupmyeondong].compactMap { $0 }.joined(separator: " ")
    }
}

/// Korea's administrative areas, read once from `korea-places.bin` (docs/place.md): a point is named with no network
/// and nothing leaves the server (`PlaceFile`, with exact integer arithmetic on coordinates kept to 1e-7 degree).
public final class KoreanPlaces: Sendable {
    private let file: PlaceFile

    /// The data bundled with Saessak, read on first use (about 26 MB of memory once read).
    public static let bundled: Result<KoreanPlaces, PlaceDataError> = PlaceFile.bundled("korea-places.bin").flatMap { data in
        Result { () throws(PlaceDataError) in try KoreanPlaces(data: data) }
    }

    public convenience init(data: Data) throws(PlaceDataError) {
        self.init(try PlaceFile(data: data, cell: 500_000))  // 0.05°
    }

    private init(_ file: PlaceFile) { self.file = file }

    /// How many areas the data holds.
    public var areaCount: Int { file.areas.count }

    /// The place at a position, or nil outside South Korea (or at sea beyond its areas).
    public func place(latitude: Double, longitude: Double) -> KoreanPlace? {
        guard let area = file.area(latitude: latitude, longitude: longitude), let sido = file.name(area.korean.0) else { return nil }
        return KoreanPlace(
            korean: .init(sido: sido, sigungu: file.name(area.korean.1), eupmyeondong: file.name(area.korean.2)),
            english: .init(
                sido: file.name(area.english.0) ?? sido, sigungu: file.name(area.english.1), eupmyeondong: file.name(area.english.2)),
            code: area.code == 0 ? nil : String(area.code))
    }
}
