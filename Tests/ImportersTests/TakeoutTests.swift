import Foundation
import Testing

@testable import Importers

/// Google Photos Takeout's names and sidecars (the format: blackbox/takeout.py).
@Suite struct TakeoutTests {
    /// Whether the sidecar named `sidecar` is the photo `photo`'s.
    func pairs(_ sidecar: String, _ photo: String) -> Bool {
        guard let (stem, copy) = TakeoutNames.described(bySidecar: sidecar) else { return false }
        return TakeoutNames.matches(stem: stem, copy: copy, sidecar: sidecar, photo: photo)
    }

    @Test func aSidecarIsFoundUnderEveryNameTakeoutGivesIt() {
        #expect(pairs("IMG_0001.JPG.json", "IMG_0001.JPG"))
        #expect(pairs("IMG_0001.JPG.supplemental-metadata.json", "IMG_0001.JPG"))
        #expect(pairs("IMG_0001.JPG.supplemental-me.json", "IMG_0001.JPG"))
        #expect(pairs("IMG_0001.JPG.s.json", "IMG_0001.JPG"))
        // A second photo of the same name: the number after the extension in the sidecar's name.
        #expect(pairs("IMG_0003.JPG(1).json", "IMG_0003(1).JPG"))
        #expect(pairs("IMG_0003.JPG.supplemental-metadata(1).json", "IMG_0003(1).JPG"))
        #expect(!pairs("IMG_0003.JPG(1).json", "IMG_0003.JPG"))
        #expect(!pairs("IMG_0003.JPG.json", "IMG_0003(1).JPG"))
        #expect(!pairs("IMG_0003.JPG(2).json", "IMG_0003(1).JPG"))
        // Names cut short to fit the sidecar's 46–51 characters; compared by scalar (a cut may split a character).
        #expect(pairs("0123456789abcdefghijklmnopqrstuvwxyz01234 2.jp.json", "0123456789abcdefghijklmnopqrstuvwxyz01234 2.jpg"))
        #expect(pairs("20210506_놀이터에서_미끄럼틀을_처음_혼자_탄_날_기념사진.jpg.supplement.json", "20210506_놀이터에서_미끄럼틀을_처음_혼자_탄_날_기념사진.jpg"))
        #expect(pairs("a_very_long_photo_name_for_a_test_of_cutting_☺.json", "a_very_long_photo_name_for_a_test_of_cutting_☺️x.jpg"))
        #expect(pairs("a_long_name_of_a_photo_taken_at_the_wedding_x_(494).json", "a_long_name_of_a_photo_taken_at_the_wedding_x_m(494).jpg"))
        // A short name is never a prefix of another: IMG_1.JPG's sidecar is not IMG_12.JPG's.
        #expect(!pairs("IMG_1.json", "IMG_12.JPG"))
        #expect(!pairs("PXL_20211013_220651983.jpg.json", "PXL_20211013_220651958.jpg"))
        #expect(TakeoutNames.described(bySidecar: "notes.txt") == nil)
        #expect(TakeoutNames.described(bySidecar: ".json") == nil)
    }

    @Test func editedCopiesAndLivePhotosByName() {
        #expect(TakeoutNames.original(ofEdited: "IMG_0004-edited.JPG") == "IMG_0004.JPG")
        #expect(TakeoutNames.original(ofEdited: "PXL_1.PORTRAIT-modifié.jpg") == "PXL_1.PORTRAIT.jpg")
        #expect(TakeoutNames.original(ofEdited: "IMG_0004.JPG") == nil)
        #expect(TakeoutNames.original(ofEdited: "-edited.jpg") == nil)
        #expect(TakeoutNames.liveKey("IMG_0005.HEIC") == TakeoutNames.liveKey("IMG_0005.mp4"))
        #expect(PhotoHints.isYearFolder("Photos from 2021") && !PhotoHints.isYearFolder("Photos from Jeju"))
    }

    @Test func aSidecarsValuesAreTakenOnlyInTheirRange() throws {
        let json = #"{"title": "IMG.JPG", "description": " 첫 걸음\u0007 ", "photoTakenTime": {"timestamp": "1620176400"},"#
            + #" "geoData": {"latitude": 0.0, "longitude": 0.0}, "geoDataExif": {"latitude": 37.5, "longitude": 127.0}}"#
        let sidecar = try #require(TakeoutSidecar.read(Data(json.utf8)))
        #expect(sidecar.taken == Date(timeIntervalSince1970: 1_620_176_400) && sidecar.description == "첫 걸음")
        #expect(sidecar.latitude == 37.5 && sidecar.longitude == 127.0)  // geoData's 0, 0 is "none"
        for timestamp in ["", "-", "1e9", "99999999999999", "١٦٢٠١٧٦٤٠٠", "9999999999"] {
            let odd = TakeoutSidecar.read(Data(#"{"photoTakenTime": {"timestamp": "\#(timestamp)"}}"#.utf8))
            #expect(odd != nil && odd?.taken == nil, "timestamp \(timestamp)")
        }
        #expect(TakeoutSidecar.read(Data(#"{"geoData": {"latitude": 91, "longitude": 10}}"#.utf8))?.latitude == nil)
        #expect(TakeoutSidecar.read(Data("[]".utf8)) == nil && TakeoutSidecar.read(Data("{".utf8)) == nil)
        #expect(TakeoutSidecar.read(Data(#"{"description": "\#(String(repeating: "\u{301}", count: 40))"}"#.utf8))?.description == nil)
    }
}
