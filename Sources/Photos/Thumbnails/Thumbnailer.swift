import Foundation
import Diary

/// The sizes Saessak keeps of every photo.
public enum ThumbnailSize: String, CaseIterable, Sendable {
    /// About 320 px: timeline and calendar grids.
    case small
    /// About 1600 px: the photo viewer.
    case large
    /// 512 px square, cropped to the most interesting part: a child's profile photo.
    case square

    var box: (width: Int, height: Int, crop: Bool) {
        switch self {
        case .small: (320, 320, false)
        case .large: (1600, 1600, false)
        case .square: (512, 512, true)
        }
    }
}

/// The encoding of thumbnails. JPEG: every browser and photo app shows it, and a large thumbnail of a 24 MP photo
/// took 0.14 s as JPEG against 0.20 s as WebP here (docs/photos.md); WebP would save bytes, not time.
public enum ThumbnailFormat: String, Sendable {
    case jpeg, webp

    public var mimeType: String { self == .jpeg ? "image/jpeg" : "image/webp" }
}

/// Makes thumbnails with libvips: shrink-on-load, rotated upright by EXIF, converted to sRGB, metadata stripped.
public enum Thumbnailer {
    public static let format = ThumbnailFormat.jpeg
    static let quality = 80

    /// The encoded thumbnail of an original; fails on damaged or truncated data.
    public static func thumbnail(of original: URL, size: ThumbnailSize, format: ThumbnailFormat = format) throws(PhotoError) -> Data {
        var box = size.box
        if box.crop {
            // Never enlarged: a square as large as the short side allows, up to the box.
            let header = try Vips.Image(path: original.path, format: try Vips.format(of: original.path).format, failOnTruncated: true)
            let side = min(box.width, header.width, header.height)
            box = (side, side, true)
        }
        let image = try Vips.Image(thumbnailOf: original.path, width: box.width, height: box.height, attentionCrop: box.crop)
        return try image.encoded(as: format, quality: quality)
    }
}

extension Thumbnailer {
    /// A thumbnail of a stored photo or clip (a clip's is made from its poster frame, taken into `scratch`).
    public static func thumbnail(of photo: Photo, original: URL, size: ThumbnailSize, scratch: URL) throws(PhotoError) -> Data {
        guard let video = photo.video else { return try thumbnail(of: original, size: size) }
        guard let format = MediaFormat(mimeType: photo.mimeType), format.isVideo else {
            throw .internal("photo \(photo.id) is a clip of no known container (\(photo.mimeType))")
        }
        return try VideoRendition.thumbnail(
            of: MediaInput(path: original.path, format: format), durationMilliseconds: video.durationMilliseconds, size: size, poster: scratch)
    }
}
