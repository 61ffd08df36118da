import Diary

/// The text an entry's coordinates give its `placeRegion` column: `서울특별시 중구 태평로1가`, or nil outside Korea.
public enum PlaceRegion {
    public static func text(latitude: Double?, longitude: Double?) -> String? {
        guard let latitude, let longitude else { return nil }
        return text(try? Place(name: nil, latitude: latitude, longitude: longitude))
    }

    public static func text(_ place: Place?) -> String? { place?.region?.text(english: false) }
}
