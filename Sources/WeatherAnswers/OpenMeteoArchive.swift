import Foundation

/// One day's weather at one place, as a public archive gives it: the WMO weather code of the day and its highest and
/// lowest temperature (°C at 2 m).
public struct DailyWeather: Hashable, Sendable, Codable {
    public let code: Int
    public let high: Double
    public let low: Double

    public init(code: Int, high: Double, low: Double) {
        self.code = code
        self.high = high
        self.low = low
    }

    /// The day in words, as an entry's weather is written: `맑음 18℃/7℃`, `Rain 9℃/3℃`.
    public func text(english: Bool) -> String {
        "\(english ? condition.english : condition.korean) \(Int(high.rounded()))℃/\(Int(low.rounded()))℃"
    }

    /// The WMO code (WMO 4677, as Open-Meteo reports it) as people say it.
    public var condition: (korean: String, english: String) {
        switch code {
        case 0: ("맑음", "Clear")
        case 1, 2: ("구름 조금", "Partly cloudy")
        case 3: ("흐림", "Cloudy")
        case 45, 48: ("안개", "Fog")
        case 51...57: ("이슬비", "Drizzle")
        case 61...67, 80...82: ("비", "Rain")
        case 71...77, 85, 86: ("눈", "Snow")
        case 95...99: ("뇌우", "Thunderstorm")
        default: ("흐림", "Cloudy")
        }
    }
}

/// A position rounded to 0.1° (about 11 km north–south, 9 km east–west in Korea): all that is sent for a day's weather,
/// and the key the answers are kept under, so one day and cell is asked once.
public struct WeatherCell: Hashable, Sendable {
    /// Tenths of a degree.
    public let latitude: Int
    public let longitude: Int

    public init?(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        self.latitude = Int((latitude * 10).rounded())
        self.longitude = Int((longitude * 10).rounded())
    }

    /// `37.6,127.0`: the cell's centre, as sent and as kept.
    public var key: String { "\(Self.degrees(latitude)),\(Self.degrees(longitude))" }

    static func degrees(_ tenths: Int) -> String {
        let sign = tenths < 0 ? "-" : ""
        let magnitude = abs(tenths)
        return "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }
}

/// Open-Meteo's historical weather API ("archive"): the request for one day at one cell, and its answer read without
/// trusting a byte of it (docs/place.md). Documented answer: `{"daily": {"time": ["2026-11-22"], "weather_code": [3],
/// "temperature_2m_max": [12.3], "temperature_2m_min": [4.1]}, …}`; an error is HTTP 400 with `{"error": true,
/// "reason": "…"}`. A day the archive has not reached yet (about five days back) comes with nulls.
public enum OpenMeteoArchive {
    /// The default service: no key, free for non-commercial use.
    public static let defaultURL = "https://archive-api.open-meteo.com/v1/archive"
    /// An answer longer than this is not an answer for one day.
    public static let maximumAnswerBytes = 64 * 1024

    public enum Failure: Error, Equatable, Sendable {
        /// The service said no (its reason, shortened).
        case refused(String)
        /// Not the documented shape.
        case malformed(String)
    }

    /// The query for one day (`YYYY-MM-DD`, Seoul's calendar) at one cell.
    public static func query(cell: WeatherCell, date: String) -> String {
        "latitude=\(WeatherCell.degrees(cell.latitude))&longitude=\(WeatherCell.degrees(cell.longitude))"
            + "&start_date=\(date)&end_date=\(date)&daily=weather_code,temperature_2m_max,temperature_2m_min&timezone=Asia%2FSeoul"
    }

    private struct Answer: Decodable {
        struct Daily: Decodable {
            let time: [String?]?
            let weatherCode: [Double?]?
            let high: [Double?]?
            let low: [Double?]?

            enum CodingKeys: String, CodingKey {
                case time
                case weatherCode = "weather_code"
                case high = "temperature_2m_max"
                case low = "temperature_2m_min"
            }
        }

        let daily: Daily?
        let error: Bool?
        let reason: String?
    }

    /// The day's weather from an answer's bytes: nil when the archive has no data for the day yet (nulls, or the day
    /// missing); a failure for an error answer or anything not of the documented shape.
    public static func weather(from bytes: Data, date: String) throws(Failure) -> DailyWeather? {
        guard bytes.count <= maximumAnswerBytes else { throw .malformed("the answer is longer than \(maximumAnswerBytes) bytes") }
        let answer: Answer
        do {
            answer = try JSONDecoder().decode(Answer.self, from: bytes)
        } catch {
            throw .malformed("not the archive's JSON")
        }
        if answer.error == true { throw .refused(String((answer.reason ?? "no reason given").prefix(200))) }
        guard let daily = answer.daily, let times = daily.time else { throw .malformed("no daily values") }
        guard let index = times.firstIndex(where: { $0 == date }) else { return nil }
        func value(_ list: [Double?]?) -> Double? {
            guard let list, index < list.count, let value = list[index], value.isFinite else { return nil }
            return value
        }
        guard let code = value(daily.weatherCode), let high = value(daily.high), let low = value(daily.low) else { return nil }
        guard code >= 0, code <= 99, code == code.rounded() else { throw .malformed("weather code \(code) is not a WMO code") }
        guard (-90...70).contains(high), (-90...70).contains(low), low <= high else {
            throw .malformed("temperatures \(low)…\(high) ℃ are not a day's")
        }
        return DailyWeather(code: Int(code), high: high, low: low)
    }
}
