import Diary
import Foundation

/// A photo made ready for a printed page: upright, sRGB, no larger than the place it fills needs at print resolution
/// (never enlarged: a small original keeps its own pixels), as a baseline JPEG without metadata.
public struct PrintImage: Sendable {
    public let jpeg: Data
    public let width: Int
    public let height: Int
}

extension Thumbnailer {
    /// JPEG quality for print: no visible loss at 300 ppi, a third of the bytes of 100.
    static let printQuality = 90

    /// The print image of an original fitting `width` × `height` pixels; a clip's is made from its poster frame,
    /// taken into `scratch`. Fails on damaged data.
    public static func printImage(of photo: Photo, original: URL, width: Int, height: Int, scratch: URL) throws(PhotoError) -> PrintImage {
        guard let video = photo.video else { return try printImage(of: original, width: width, height: height) }
        guard let format = MediaFormat(mimeType: photo.mimeType), format.isVideo else {
            throw .internal("photo \(photo.id) is a clip of no known container (\(photo.mimeType))")
        }
        defer { try? FileManager.default.removeItem(at: scratch) }
        try VideoRendition.posterFrame(
            of: MediaInput(path: original.path, format: format), durationMilliseconds: video.durationMilliseconds, to: scratch)
        return try printImage(of: scratch, width: width, height: height)
    }

    static func printImage(of file: URL, width: Int, height: Int) throws(PhotoError) -> PrintImage {
        let image = try Vips.Image(thumbnailOf: file.path, width: max(1, width), height: max(1, height), attentionCrop: false)
        let jpeg = try image.encoded(as: .jpeg, quality: printQuality, forPrint: true)
        return PrintImage(jpeg: jpeg, width: image.width, height: image.height)
    }
}
