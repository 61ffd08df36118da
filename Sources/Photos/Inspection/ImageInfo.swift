import Foundation

/// What Saessak learns from a photo without decoding its pixels: its format, size as displayed, and EXIF.
public struct ImageInfo: Hashable, Sendable {
    public let format: MediaFormat
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

    /// Nil for anything but ASCII digits in the shape (a regular expression's `\d` takes Arabic-Indic digits too,
    /// which the database then refused with a 500 for the whole upload: issue 17).
    public init?(local: String, offset: String?) {
        guard Self.matches(local, "9999-99-99T99:99:99"), local != "0000-00-00T00:00:00" else { return nil }
        self.local = local
        self.offset = offset.flatMap { Self.matches($0, "+99:99") || Self.matches($0, "-99:99") ? $0 : nil }
    }

    /// `text` byte for byte like `shape`, where each `9` stands for an ASCII digit.
    static func matches(_ text: String, _ shape: String) -> Bool {
        let bytes = Array(text.utf8), pattern = Array(shape.utf8)
        guard bytes.count == pattern.count else { return false }
        return zip(bytes, pattern).allSatisfy { byte, expected in
            expected == UInt8(ascii: "9") ? (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) : byte == expected
        }
    }

    /// ISO 8601: with the offset when known.
    public var iso: String { local + (offset ?? "") }
}
