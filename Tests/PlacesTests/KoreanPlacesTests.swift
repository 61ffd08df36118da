import Foundation
import Testing

@testable import Places

@Suite struct KoreanPlacesTests {
    let places: KoreanPlaces

    init() throws { places = try KoreanPlaces.bundled.get() }

    @Test func cityHallsAndIslands() throws {
        let seoul = try #require(places.place(latitude: 37.5663, longitude: 126.9779))
        #expect(seoul.korean == .init(sido: "서울특별시", sigungu: "중구", eupmyeondong: "태평로1가"))
        #expect(seoul.english.sido == "Seoul" && seoul.english.sigungu == "Jung-gu" && seoul.english.eupmyeondong == "Taepyeongno 1-ga")
        #expect(seoul.text(english: false) == "서울특별시 중구 태평로1가")
        #expect(seoul.text(english: true) == "Taepyeongno 1-ga, Jung-gu, Seoul")
        #expect(seoul.code?.hasPrefix("11140") == true)
        #expect(places.place(latitude: 33.4587, longitude: 126.9427)?.korean.eupmyeondong == "성산읍")
        #expect(places.place(latitude: 37.4845, longitude: 130.9057)?.korean.sigungu == "울릉군")
    }

    @Test func renamedRegionsHaveTodaysNames() throws {
        // 전주시청: 전라북도 became 전북특별자치도 on 2024-01-18.
        #expect(places.place(latitude: 35.8242, longitude: 127.1480)?.korean.sido == "전북특별자치도")
        #expect(places.place(latitude: 35.8242, longitude: 127.1480)?.english.sido == "Jeonbuk State")
        // 군위군청: part of 대구광역시 since 2023-07-01.
        #expect(places.place(latitude: 36.2428, longitude: 128.5728)?.korean.sido == "대구광역시")
    }

    @Test func noPlaceAtSeaOrAbroad() {
        #expect(places.place(latitude: 36.0, longitude: 125.0) == nil)  // the Yellow Sea
        #expect(places.place(latitude: 35.6895, longitude: 139.6917) == nil)  // Tokyo
        #expect(places.place(latitude: .nan, longitude: 127) == nil)
        #expect(places.place(latitude: 91, longitude: 127) == nil)
    }

    @Test func brokenDataIsRefusedWhole() throws {
        try refusesBrokenCopies(of: "korea-places") { data throws(PlaceDataError) in _ = try KoreanPlaces(data: data) }
        #expect(throws: PlaceDataError.self) { try KoreanPlaces(data: Data(repeating: 0xFF, count: 64)) }
    }
}

/// A place file cut anywhere, or with a byte too many, is refused whole by `read` (never read past its end).
func refusesBrokenCopies(of resource: String, _ read: (Data) throws(PlaceDataError) -> Void) throws {
    let url = try #require(Bundle.module.url(forResource: resource, withExtension: "bin"))
    let data = try Data(contentsOf: url)
    for cut in [0, 3, 5, 9, 200, data.count / 2, data.count - 1] {
        #expect(throws: PlaceDataError.self) { try read(data.prefix(cut)) }
    }
    var longer = data
    longer.append(0)
    #expect(throws: PlaceDataError.self) { try read(longer) }
}
