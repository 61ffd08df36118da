import Foundation

/// What Saessak learns from a photo without decoding its pixels: its format, size as displayed, and EXIF.
public struct ImageInfo: Hashable, Sendable {
    public let format: ImageFormat
    /// Width and height as the photo is displayed (after its EXIF orientation).
    public let width: Int
    public let height: Int
    /// EXIF orientation 1–8 (1 = upright).
    public let orientation: Int
    public let taken: CaptureTime?
    public let latitude: Double?
    public let longitude: Double?
    public let cameraMake: String?
    public let cameraModel: String?
}

/// When the camera says the photo was taken: its wall-clock time, and the UTC offset when the camera recorded one
/// (EXIF OffsetTimeOriginal; older cameras do not).
public struct CaptureTime: Hashable, Sendable {
    /// `YYYY-MM-DDTHH:MM:SS`
    public let local: String
    /// `+09:00`, or nil when unknown.
    public let offset: String?

    public init?(local: String, offset: String?) {
        guard local.count == 19, local.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$"#, options: .regularExpression) != nil,
            local != "0000-00-00T00:00:00"
        else { return nil }
        self.local = local
        self.offset = offset.flatMap { $0.range(of: #"^[+-]\d{2}:\d{2}$"#, options: .regularExpression) != nil ? $0 : nil }
    }

    /// ISO 8601: with the offset when known.
    public var iso: String { local + (offset ?? "") }
}
