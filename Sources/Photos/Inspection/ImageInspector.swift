import Foundation

/// Checks an uploaded file and reads what the diary needs from it, without decoding the pixels.
public enum ImageInspector {
    /// The format (by content), displayed size and EXIF of the file; refuses anything that is not a supported
    /// photo or that breaks the limits.
    public static func inspect(_ file: URL, limits: PhotoLimits = .standard) throws(PhotoError) -> ImageInfo {
        let head: Data
        let size: Int
        do {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            head = try handle.read(upToCount: MediaFormat.sniffLength) ?? Data()
            size = Int(try handle.seekToEnd())
        } catch {
            throw .internal("cannot read the upload: \(error)")
        }
        guard size <= limits.maxBytes else {
            throw .tooLarge("the photo is \(megabytes(size)), more than the \(megabytes(limits.maxBytes)) limit")
        }
        let format = try MediaFormat.sniff(head).get()
        guard format.loader != nil else { throw .internal("a \(format.rawValue) video is not a photo") }
        guard Vips.takes(format, path: file.path) else {
            _ = Vips.takeError()
            throw .corrupt("the file starts like a \(format.rawValue.uppercased()) image but libvips cannot read it")
        }
        let image = try Vips.Image(path: file.path, format: format, failOnTruncated: true)
        let (width, height) = (image.width, image.height)
        guard width > 0, height > 0, width.multipliedReportingOverflow(by: height).partialValue <= limits.maxPixels,
            !width.multipliedReportingOverflow(by: height).overflow
        else {
            throw .tooLarge("the photo is \(width)×\(height) pixels, more than the \(limits.maxPixels / 1_000_000) megapixel limit")
        }
        let orientation = (1...8).contains(image.intField("orientation") ?? 1) ? image.intField("orientation") ?? 1 : 1
        let rotated = orientation >= 5
        return ImageInfo(
            format: format, width: rotated ? height : width, height: rotated ? width : height, orientation: orientation,
            taken: captureTime(image), latitude: coordinate(image, "GPSLatitude", negative: "S"),
            longitude: coordinate(image, "GPSLongitude", negative: "W"),
            cameraMake: text(image, "exif-ifd0-Make"), cameraModel: text(image, "exif-ifd0-Model"))
    }

    private static func captureTime(_ image: Vips.Image) -> CaptureTime? {
        guard let raw = text(image, "exif-ifd2-DateTimeOriginal") ?? text(image, "exif-ifd0-DateTime"), raw.count >= 19 else { return nil }
        let characters = Array(raw.prefix(19))
        guard characters[4] == ":", characters[7] == ":", characters[10] == " " else { return nil }
        let local = String(characters[0..<4]) + "-" + String(characters[5..<7]) + "-" + String(characters[8..<10]) + "T"
            + String(characters[11..<19])
        return CaptureTime(local: local, offset: text(image, "exif-ifd2-OffsetTimeOriginal"))
    }

    /// Degrees from EXIF's degrees/minutes/seconds rationals, negative for S and W.
    private static func coordinate(_ image: Vips.Image, _ tag: String, negative: String) -> Double? {
        guard let raw = image.field("exif-ifd3-\(tag)"), let reference = text(image, "exif-ifd3-\(tag)Ref") else { return nil }
        // libvips prints rationals as "37/1 33/1 297/5 (37, 33, 59.4, Rational, 3 components, 24 bytes)".
        let parts = raw.split(separator: " ").prefix(3).map { part -> Double? in
            let fraction = part.split(separator: "/")
            guard fraction.count == 2, let numerator = Double(fraction[0]), let denominator = Double(fraction[1]), denominator != 0
            else { return nil }
            return numerator / denominator
        }
        guard parts.count == 3, let degrees = parts[0], let minutes = parts[1], let seconds = parts[2] else { return nil }
        let value = degrees + minutes / 60 + seconds / 3600
        let limit = tag == "GPSLatitude" ? 90.0 : 180.0
        guard value.isFinite, value <= limit, !(degrees == 0 && minutes == 0 && seconds == 0) else { return nil }
        return reference.hasPrefix(negative) ? -value : value
    }

    /// The value of an ASCII EXIF field: libvips prints "V (V, ASCII, n components, n bytes)".
    static func text(_ image: Vips.Image, _ name: String) -> String? {
        guard let raw = image.field(name) else { return nil }
        guard let suffix = raw.range(of: #", [A-Za-z]+, \d+ components, \d+ bytes\)$"#, options: .regularExpression) else {
            return raw.trimmingCharacters(in: .whitespaces).nilIfEmpty
        }
        let body = raw[..<suffix.lowerBound]  // "V (V"
        let value = body.prefix((body.count - 2) / 2)
        return value.trimmingCharacters(in: CharacterSet.whitespaces.union(.controlCharacters)).nilIfEmpty
    }

    public static func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
