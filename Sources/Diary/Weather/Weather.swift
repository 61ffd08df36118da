import Foundation
import WeatherAnswers

/// A day's weather at a cell as the archive answered it, kept so that one day and cell is asked once: the weather, or
/// nil when the archive had none for that day yet.
public struct CachedWeather: Sendable {
    public let weather: DailyWeather?
    public let fetchedAt: Date

    public init(weather: DailyWeather?, fetchedAt: Date) {
        self.weather = weather
        self.fetchedAt = fetchedAt
    }
}

/// Whether a family looks up the weather of its entries (off until an owner turns it on), and the answers kept.
public protocol WeatherStore: Sendable {
    func lookupIsOn(family: FamilyID) async throws -> Bool

    func setLookup(_ on: Bool, family: FamilyID) async throws

    /// The answer kept for a cell (`WeatherCell.key`) and day (`YYYY-MM-DD`), if any.
    func cached(cell: String, date: String) async throws -> CachedWeather?

    /// Keeps an answer (nil: the archive had no data for the day yet), replacing an older one.
    func remember(cell: String, date: String, weather: DailyWeather?) async throws
}

/// The SQL both engines share.
public enum WeatherSQL {
    public static let isOn = "SELECT weatherLookup FROM families WHERE id = ?"
    /// on, family.
    public static let setOn = "UPDATE families SET weatherLookup = ? WHERE id = ?"
    /// cell, date.
    public static let cached = "SELECT code, high, low, fetchedAt FROM weatherCache WHERE cell = ? AND date = ?"
    /// cell, date, code, high, low, fetchedAt.
    public static let remember = """
        INSERT INTO weatherCache (cell, date, code, high, low, fetchedAt) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (cell, date) DO UPDATE SET code = excluded.code, high = excluded.high, low = excluded.low, fetchedAt = excluded.fetchedAt
        """

    /// The kept answer from its columns (a row without a code is "no data yet").
    public static func cachedWeather(code: Int?, high: Double?, low: Double?, fetchedAt: Date) -> CachedWeather {
        guard let code, let high, let low else { return CachedWeather(weather: nil, fetchedAt: fetchedAt) }
        return CachedWeather(weather: DailyWeather(code: code, high: high, low: low), fetchedAt: fetchedAt)
    }
}
