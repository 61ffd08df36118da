/// What an upload may be. Phone photos are 4–12 MB and 12–48 megapixels; the limits leave room and stop
/// decompression bombs before any pixel is decoded.
public struct PhotoLimits: Sendable {
    public var maxBytes: Int
    public var maxPixels: Int

    public init(maxBytes: Int = 64 * 1024 * 1024, maxPixels: Int = 120_000_000) {
        self.maxBytes = maxBytes
        self.maxPixels = maxPixels
    }

    public static let standard = PhotoLimits()
}
