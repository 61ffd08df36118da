import Diary
import Foundation
import KoreanCalendar
import Testing

@testable import Importers

/// The small rules of an import of photos: the time zone an entry gets from the camera's offset, and the title.
@Suite struct PhotoImportRulesTests {
    @Test func anOffsetBecomesTheDiarysZoneOrAFixedOne() throws {
        let day = try LocalDateTime(iso: "2024-03-01T10:00")
        #expect(PhotoImport.zoneName(offset: nil, at: day) == "Asia/Seoul")
        #expect(PhotoImport.zoneName(offset: "+09:00", at: day) == "Asia/Seoul")
        #expect(PhotoImport.zoneName(offset: "+07:00", at: day) == "Etc/GMT-7")  // IANA's Etc names count the other way
        #expect(PhotoImport.zoneName(offset: "-05:00", at: day) == "Etc/GMT+5")
        #expect(PhotoImport.zoneName(offset: "+00:00", at: day) == "UTC")
        #expect(PhotoImport.zoneName(offset: "+05:30", at: day) == "Asia/Seoul")  // no fixed IANA zone: the diary's
        for name in ["Etc/GMT-7", "Etc/GMT+5", "UTC"] { #expect(EntryContent.isTimeZone(name)) }
        #expect(PhotoImport.offsetSeconds("+09:00") == 32_400)
        #expect(PhotoImport.offsetSeconds("-03:30") == -12_600)
        for broken in ["+9:00", "+15:00", "+09:60", "09:00", "+٠٩:00", "+09:00 "] { #expect(PhotoImport.offsetSeconds(broken) == nil) }
    }

    @Test func aDaysTitleCountsItsPhotosAndClips() {
        let family = FamilyID()
        func photo(video: Bool) -> Photo {
            Photo(
                familyID: family, sha256: UUID().uuidString, mimeType: video ? "video/mp4" : "image/jpeg", byteCount: 1, width: 1, height: 1,
                video: video ? VideoFacts(durationMilliseconds: 1000, videoCodec: "h264", audioCodec: nil, rendition: .none) : nil,
                createdAt: Date())
        }
        let day = [photo(video: false), photo(video: true), photo(video: false)]
        #expect(PhotoImport.title(day, language: .korean) == "사진 2장 · 동영상 1개")
        #expect(PhotoImport.title(day, language: .english) == "2 photos · 1 clip")
        #expect(PhotoImport.title([photo(video: false)], language: .english) == "1 photo")
        #expect(PhotoImport.title([photo(video: true), photo(video: true)], language: .korean) == "동영상 2개")
    }
}
