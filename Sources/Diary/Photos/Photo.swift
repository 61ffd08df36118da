import Foundation
import KoreanCalendar

/// A photo's metadata row; the files live in the photo library, named by `sha256`.
public struct Photo: Hashable, Sendable {
    public let id: PhotoID
    public let familyID: FamilyID
    /// Lowercase hex SHA-256 of the original bytes: the photo's file name in the content-addressed store.
    public let sha256: String
    public let mimeType: String
    public let byteCount: Int
    /// As displayed (after the EXIF orientation).
    public let width: Int
    public let height: Int
    public let orientation: Int
    /// When the camera says it was taken: `YYYY-MM-DDTHH:MM:SS` wall clock, and `+09:00` when recorded.
    public let takenLocal: String?
    public let takenOffset: String?
    public let latitude: Double?
    public let longitude: Double?
    public let cameraMake: String?
    public let cameraModel: String?
    public var thumbnailsReady: Bool
    /// A video clip's length, codecs and web rendition; nil for a photo.
    public var video: VideoFacts?
    public let createdAt: Date

    public init(
        id: PhotoID = PhotoID(), familyID: FamilyID, sha256: String, mimeType: String, byteCount: Int, width: Int,
        height: Int, orientation: Int = 1, takenLocal: String? = nil, takenOffset: String? = nil, latitude: Double? = nil,
        longitude: Double? = nil, cameraMake: String? = nil, cameraModel: String? = nil, thumbnailsReady: Bool = false,
        video: VideoFacts? = nil, createdAt: Date
    ) {
        self.id = id
        self.familyID = familyID
        self.sha256 = sha256
        self.mimeType = mimeType
        self.byteCount = byteCount
        self.width = width
        self.height = height
        self.orientation = orientation
        self.takenLocal = takenLocal
        self.takenOffset = takenOffset
        self.latitude = latitude
        self.longitude = longitude
        self.cameraMake = cameraMake
        self.cameraModel = cameraModel
        self.thumbnailsReady = thumbnailsReady
        self.video = video
        self.createdAt = createdAt
    }

    /// ISO 8601 capture time, with the offset when the camera recorded one.
    public var takenAt: String? { takenLocal.map { $0 + (takenOffset ?? "") } }

    /// The day the camera says it was taken, on its own clock (nil when it says nothing).
    public var takenDay: SolarDate? { takenLocal.flatMap { try? SolarDate(iso: String($0.prefix(10))) } }
}

/// What a video clip's row adds to a photo's (its width and height are the picture's as displayed, its
/// thumbnails are made from a poster frame).
public struct VideoFacts: Hashable, Sendable {
    public let durationMilliseconds: Int
    /// ffmpeg's codec names (`h264`, `hevc`, `vp9`; `aac`, `opus`); audio nil for a silent clip.
    public let videoCodec: String
    public let audioCodec: String?
    public var rendition: RenditionState
    /// How much of the rendition is made, 0–100, while it is being made.
    public var renditionProgress: Int?

    public init(durationMilliseconds: Int, videoCodec: String, audioCodec: String?, rendition: RenditionState, renditionProgress: Int? = nil) {
        self.durationMilliseconds = durationMilliseconds
        self.videoCodec = videoCodec
        self.audioCodec = audioCodec
        self.rendition = rendition
        self.renditionProgress = renditionProgress
    }
}

extension VideoFacts {
    /// A row's video columns, read back on either engine: nil for a photo (no length), an error for a state no
    /// version of Saessak writes.
    public init?(durationMilliseconds: Int?, videoCodec: String?, audioCodec: String?, rendition: String, progress: Int?) throws {
        guard let durationMilliseconds else { return nil }
        guard let state = RenditionState(rawValue: rendition) else {
            throw ValidationError(field: "rendition", "'\(rendition)' is not a rendition state")
        }
        self.init(
            durationMilliseconds: durationMilliseconds, videoCodec: videoCodec ?? "", audioCodec: audioCodec, rendition: state,
            renditionProgress: progress)
    }
}

/// Where a clip's web rendition (H.264/AAC MP4 for browsers that cannot play the original) stands.
public enum RenditionState: String, Sendable, CaseIterable {
    /// The original plays in browsers as it is.
    case none
    /// Waiting for, or being made by, the rendition worker.
    case pending
    case ready
    /// ffmpeg could not make it; the original can still be downloaded.
    case failed
}

/// A photo file whose last row is gone: its original and thumbnails can be deleted.
public struct ReleasedPhotoFile: Hashable, Sendable {
    public let sha256: String
    public let mimeType: String

    public init(sha256: String, mimeType: String) {
        self.sha256 = sha256
        self.mimeType = mimeType
    }
}

/// What a family's (or every family's) files take: originals of photos and of clips, and books kept for download.
public struct StorageUse: Sendable, Equatable {
    public let photoBytes: Int64
    public let clipBytes: Int64
    public let bookBytes: Int64
    /// Originals added in the 30 days before it was read: the diary's growth.
    public let addedLastMonth: Int64

    public init(photoBytes: Int64, clipBytes: Int64, bookBytes: Int64, addedLastMonth: Int64) {
        self.photoBytes = photoBytes
        self.clipBytes = clipBytes
        self.bookBytes = bookBytes
        self.addedLastMonth = addedLastMonth
    }
}
