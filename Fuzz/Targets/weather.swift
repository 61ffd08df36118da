// libFuzzer target: what a public weather archive answers (Sources/WeatherAnswers, Open-Meteo's format). The answer
// comes over the network from a service Saessak does not control, and may be anything.
import Foundation
import WeatherAnswers

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWeather(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(UnsafeBufferPointer(start: start, count: count))
    if let day = try? OpenMeteoArchive.weather(from: data, date: "2026-11-22") {
        _ = day.text(english: false)
        _ = day.text(english: true)
    }
    return 0
}
