import Foundation

/// What a photo or clip says of itself, read without keeping it: its content hash, and when and where it was taken.
public struct SurveyedMedia: Sendable {
    public let sha256: String
    public let byteCount: Int
    public let isVideo: Bool
    public let taken: CaptureTime?
    public let latitude: Double?
    public let longitude: Double?
}

extension PhotoIntake {
    /// Reads a staged file's hash, capture time and place — its header and metadata only: no thumbnail, nothing
    /// kept, the staged file dropped. An import that must see every file before it groups them (photos by the day
    /// they were taken) surveys them all first, then stages and checks one group at a time. The file is held to the
    /// same format, size and video limits as `check`, so a file the survey passes is one `check` can take.
    public func survey(_ upload: UploadWriter) throws(PhotoError) -> SurveyedMedia {
        defer { upload.abandon() }
        let sha256 = try upload.finish()
        if case .success(let sniffed) = MediaFormat.sniff(upload.head), sniffed.isVideo {
            let info = try VideoInspector.inspect(
                upload.url, format: sniffed, byteCount: upload.byteCount, limits: limits.video, zone: Self.familyClock)
            return SurveyedMedia(
                sha256: sha256, byteCount: upload.byteCount, isVideo: true, taken: info.taken, latitude: info.latitude,
                longitude: info.longitude)
        }
        let info = try ImageInspector.inspect(upload.url, limits: limits)
        return SurveyedMedia(
            sha256: sha256, byteCount: upload.byteCount, isVideo: false, taken: info.taken, latitude: info.latitude, longitude: info.longitude)
    }
}
