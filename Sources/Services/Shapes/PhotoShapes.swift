import Diary
import Places
import Foundation

/// A photo as the API shows it.
public struct PhotoResource: Encodable {
    let id: PhotoID
    let mimeType: String
    let byteCount: Int
    let sha256: String
    let width: Int
    let height: Int
    let orientation: Int
    let takenAt: String?
    let latitude: Double?
    let longitude: Double?
    /// The Korean place the GPS position lies in (found on the server; absent without one, or outside Korea).
    let region: KoreanPlace?
    /// Outside Korea's areas, the country (일본, Japan, JP).
    let country: Country?
    let cameraMake: String?
    let cameraModel: String?
    let thumbnailsReady: Bool
    let video: VideoResource?
    let createdAt: Date
    /// In an entry's photo list: the entry's children's ages on the day it was taken (the entry's day when the camera
    /// says nothing), for those born by then.
    let ages: [ChildAgeResource]?

    /// `entry` and `children`: the entry the photo is shown in and the family's children by ID, for the ages.
    public init(_ photo: Photo, in entry: Entry? = nil, children: [ChildID: Child] = [:]) {
        id = photo.id
        mimeType = photo.mimeType
        byteCount = photo.byteCount
        sha256 = photo.sha256
        width = photo.width
        height = photo.height
        orientation = photo.orientation
        takenAt = photo.takenAt
        latitude = photo.latitude
        longitude = photo.longitude
        (region, country) = (try? Place(name: nil, latitude: photo.latitude, longitude: photo.longitude))?.found ?? (nil, nil)
        cameraMake = photo.cameraMake
        cameraModel = photo.cameraModel
        thumbnailsReady = photo.thumbnailsReady
        video = photo.video.map(VideoResource.init)
        createdAt = photo.createdAt
        ages = entry.flatMap { ChildAgeResource.ages($0.content.childIDs, children, on: photo.takenDay ?? $0.content.date.date) }
    }
}

/// What the API adds for a video clip: its length and codecs, and whether browsers can play it yet
/// (`GET /photos/{id}/video`).
public struct VideoResource: Encodable {
    let durationSeconds: Double
    let videoCodec: String
    let audioCodec: String?
    let rendition: String
    let renditionProgress: Int?
    let playable: Bool

    init(_ video: VideoFacts) {
        durationSeconds = Double(video.durationMilliseconds) / 1000
        videoCodec = video.videoCodec
        audioCodec = video.audioCodec
        rendition = video.rendition.rawValue
        renditionProgress = video.rendition == .pending ? video.renditionProgress ?? 0 : nil
        playable = video.rendition == .none || video.rendition == .ready
    }
}
