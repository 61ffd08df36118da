import Foundation
import Testing

@testable import WeatherAnswers

@Suite struct OpenMeteoArchiveTests {
    private func answer(_ json: String) -> Data { Data(json.utf8) }

    @Test func aDayOfTheDocumentedAnswer() throws {
        let json = """
            {"latitude":37.6,"longitude":127.0,"generationtime_ms":0.2,"utc_offset_seconds":32400,"timezone":"Asia/Seoul",
             "timezone_abbreviation":"KST","elevation":38.0,
             "daily_units":{"time":"iso8601","weather_code":"wmo code","temperature_2m_max":"°C","temperature_2m_min":"°C"},
             "daily":{"time":["2026-11-21","2026-11-22"],"weather_code":[61,0],"temperature_2m_max":[9.4,17.6],"temperature_2m_min":[3.2,6.5]}}
            """
        let day = try #require(try OpenMeteoArchive.weather(from: answer(json), date: "2026-11-22"))
        #expect(day == DailyWeather(code: 0, high: 17.6, low: 6.5))
        #expect(day.text(english: false) == "맑음 18℃/7℃" && day.text(english: true) == "Clear 18℃/7℃")
        #expect(try OpenMeteoArchive.weather(from: answer(json), date: "2026-11-21")?.condition.korean == "비")
        #expect(try OpenMeteoArchive.weather(from: answer(json), date: "2026-11-23") == nil)
    }

    @Test func aDayNotInTheArchiveYetIsNoWeather() throws {
        let json = #"{"daily":{"time":["2026-11-22"],"weather_code":[null],"temperature_2m_max":[null],"temperature_2m_min":[null]}}"#
        #expect(try OpenMeteoArchive.weather(from: answer(json), date: "2026-11-22") == nil)
    }

    @Test func errorsAndGarbageAreNamed() {
        #expect(throws: OpenMeteoArchive.Failure.refused("Parameter 'start_date' is out of allowed range")) {
            try OpenMeteoArchive.weather(from: answer(#"{"error":true,"reason":"Parameter 'start_date' is out of allowed range"}"#), date: "1900-01-01")
        }
        for garbage in ["", "<html>502</html>", "[]", #"{"daily":{}}"#, #"{"daily":{"time":["2026-11-22"],"weather_code":[3.5],"temperature_2m_max":[1],"temperature_2m_min":[0]}}"#,
                        #"{"daily":{"time":["2026-11-22"],"weather_code":[3],"temperature_2m_max":[1e300],"temperature_2m_min":[0]}}"#,
                        #"{"daily":{"time":["2026-11-22"],"weather_code":[3],"temperature_2m_max":[1],"temperature_2m_min":[5]}}"#,
                        #"{"daily":{"time":["2026-11-22"],"weather_code":[300],"temperature_2m_max":[1],"temperature_2m_min":[0]}}"#] {
            #expect(throws: OpenMeteoArchive.Failure.self, "\(garbage)") { try OpenMeteoArchive.weather(from: answer(garbage), date: "2026-11-22") }
        }
        #expect(throws: OpenMeteoArchive.Failure.self) {
            try OpenMeteoArchive.weather(from: Data(repeating: 0x20, count: OpenMeteoArchive.maximumAnswerBytes + 1), date: "2026-11-22")
        }
    }

    @Test func onlyACellOfAboutTenKilometresIsSent() throws {
        let cell = try #require(WeatherCell(latitude: 37.56651, longitude: 126.97804))
        #expect(cell.key == "37.6,127.0")
        #expect(OpenMeteoArchive.query(cell: cell, date: "2026-11-22").hasPrefix("latitude=37.6&longitude=127.0&start_date=2026-11-22&end_date=2026-11-22&"))
        #expect(WeatherCell(latitude: -33.449, longitude: -70.671)?.key == "-33.4,-70.7")
        #expect(WeatherCell(latitude: .nan, longitude: 0) == nil && WeatherCell(latitude: 91, longitude: 0) == nil)
    }
}
