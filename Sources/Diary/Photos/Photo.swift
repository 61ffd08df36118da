import Diary
import Foundation

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
    public let createdAt: Date

    public init(
        id: PhotoID = PhotoID(), familyID: FamilyID, sha256: String, mimeType: String, byteCount: Int, width: Int,
        height: Int, orientation: Int = 1, takenLocal: String? = nil, takenOffset: String? = nil, latitude: Double? = nil,
        longitude: Double? = nil, cameraMake: String? = nil, cameraModel: String? = nil, thumbnailsReady: Bool = false,
        createdAt: Date
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
        self.createdAt = createdAt
    }

    /// ISO 8601 capture time, with the offset when the camera recorded one.
    public var takenAt: String? { takenLocal.map { $0 + (takenOffset ?? "") } }
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
