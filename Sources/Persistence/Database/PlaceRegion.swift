import Diary

/// The text an entry's coordinates give its `placeRegion` column: `서울특별시 중구 태평로1가`, outside Korea the country
/// (`일본`), or nil at sea.
public enum PlaceRegion {
    public static func text(latitude: Double?, longitude: Double?) -> String? {
        guard let latitude, let longitude else { return nil }
        return text(try? Place(name: nil, latitude: latitude, longitude: longitude))
    }

    public static func text(_ place: Place?) -> String? { place?.foundText(english: false) }
}
