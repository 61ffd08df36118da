import Diary
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
    let cameraMake: String?
    let cameraModel: String?
    let thumbnailsReady: Bool
    let createdAt: Date

    public init(_ photo: Photo) {
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
        cameraMake = photo.cameraMake
        cameraModel = photo.cameraModel
        thumbnailsReady = photo.thumbnailsReady
        createdAt = photo.createdAt
    }
}
