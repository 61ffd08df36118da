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
