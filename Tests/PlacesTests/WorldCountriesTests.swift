import Foundation
import Testing

@testable import Places

@Suite struct WorldCountriesTests {
    let world: WorldCountries

    init() throws { world = try WorldCountries.bundled.get() }

    @Test(arguments: [
        (35.6895, 139.6917, "JP", "일본", "Japan"),  // Tokyo
        (35.0116, 135.7681, "JP", "일본", "Japan"),  // Kyoto
        (48.8584, 2.2945, "FR", "프랑스", "France"),  // the Eiffel tower (Natural Earth writes -99 in ISO_A2)
        (40.7580, -73.9855, "US", "미국", "United States"),  // Times Square
        (21.3069, -157.8583, "US", "미국", "United States"),  // Honolulu
        (39.9042, 116.4074, "CN", "중국", "China"),  // Beijing
        (25.0330, 121.5654, "TW", "대만", "Taiwan"),  // Taipei
        (39.0392, 125.7625, "KP", "북한", "North Korea"),  // Pyongyang
        (10.7769, 106.7009, "VN", "베트남", "Vietnam"),  // Ho Chi Minh City
        (-33.8568, 151.2153, "AU", "호주", "Australia"),  // Sydney's opera house
        (59.9139, 10.7522, "NO", "노르웨이", "Norway"),  // Oslo (-99 in ISO_A2 too)
        (37.5663, 126.9779, "KR", "대한민국", "South Korea"),  // Seoul: named by KoreanPlaces first, but here too
    ])
    func capitalsAndHolidays(_ latitude: Double, _ longitude: Double, _ code: String, _ korean: String, _ english: String) throws {
        let country = try #require(world.country(latitude: latitude, longitude: longitude))
        #expect(country == Country(code: code, korean: korean, english: english))
        #expect(country.text(english: false) == korean && country.text(english: true) == english)
    }

    @Test func noCountryAtSea() {
        #expect(world.country(latitude: 36.0, longitude: 125.0) == nil)  // the Yellow Sea
        #expect(world.country(latitude: 0, longitude: -140) == nil)  // the Pacific
        #expect(world.country(latitude: -89.9, longitude: 0)?.code == "AQ")
        #expect(world.country(latitude: .nan, longitude: 0) == nil)
        #expect(world.country(latitude: 0, longitude: 181) == nil)
    }

    @Test func codesAreTwoOrThreeCapitals() {
        #expect(WorldCountries.code(0x4A50) == "JP")
        #expect(WorldCountries.code(0x43_594E) == "CYN")
        #expect(WorldCountries.code(0) == nil && WorldCountries.code(0x4A) == nil && WorldCountries.code(0x6A70) == nil)
        #expect(WorldCountries.code(0x4142_4344) == nil)
        #expect(world.count > 240)
    }

    @Test func brokenDataIsRefusedWhole() throws {
        try refusesBrokenCopies(of: "world-countries") { data throws(PlaceDataError) in _ = try WorldCountries(data: data) }
        // Korea's file is a valid place file, but its areas carry no country codes.
        let korea = try Data(contentsOf: try #require(Bundle.module.url(forResource: "korea-places", withExtension: "bin")))
        #expect(throws: PlaceDataError.self) { try WorldCountries(data: korea) }
    }
}
