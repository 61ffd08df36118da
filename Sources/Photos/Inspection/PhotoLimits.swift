/// What an upload may be. Phone photos are 4–12 MB and 12–48 megapixels; the limits leave room and stop
/// decompression bombs before any pixel is decoded. Videos have their own (`VideoLimits`: 1 GiB, 15 minutes).
public struct PhotoLimits: Sendable {
    public var maxBytes: Int
    public var maxPixels: Int
    public var video: VideoLimits

    public init(maxBytes: Int = 64 * 1024 * 1024, maxPixels: Int = 120_000_000, video: VideoLimits = VideoLimits()) {
        self.maxBytes = maxBytes
        self.maxPixels = maxPixels
        self.video = video
    }

    /// What a staged upload may grow to before its kind is known.
    public var maxUploadBytes: Int { max(maxBytes, video.maxBytes) }

    public static let standard = PhotoLimits()
}
