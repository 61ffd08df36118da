import Foundation

/// Real images made for the tests with the libvips and exiftool command-line tools (Debian `libvips-tools`,
/// `libimage-exiftool-perl`); the product itself never shells out.
enum Fixtures {
    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-photos-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    @discardableResult
    static func run(_ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FixtureError(message: "\(arguments.joined(separator: " ")): \(String(decoding: data, as: UTF8.self))")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// A noisy colour image of the given size, in the format its extension names.
    /// A new file each call, its name ending in `name`: tests run together, and two asking for `same.jpg` at once
    /// had one read the other's half-written file now and then (IntakeTests: "an empty file is not a supported photo").
    static func image(_ name: String, width: Int = 640, height: Int = 480) throws -> URL {
        let url = folder.appendingPathComponent("\(UUID().uuidString)-\(name)")
        let noise = folder.appendingPathComponent("\(UUID().uuidString).v")
        try run("vips", "gaussnoise", noise.path, "\(width)", "\(height)")
        let colour = folder.appendingPathComponent("\(UUID().uuidString).v")
        try run("vips", "bandjoin_const", noise.path, colour.path, "40 200")
        try run("vips", "copy", colour.path, url.path)
        return url
    }

    /// A JPEG with EXIF written by exiftool.
    static func jpegWithExif(orientation: Int = 6, width: Int = 600, height: Int = 400) throws -> URL {
        let url = try image("exif-\(UUID().uuidString).jpg", width: width, height: height)
        try run(
            "exiftool", "-q", "-overwrite_original", "-DateTimeOriginal=2024:02:10 09:30:15", "-OffsetTimeOriginal=+09:00",
            "-GPSLatitude=37.5665", "-GPSLatitudeRef=S", "-GPSLongitude=126.978", "-GPSLongitudeRef=E",
            "-Orientation#=\(orientation)", "-Make=Apple", "-Model=iPhone 15 Pro", url.path)
        return url
    }

    static func write(_ name: String, _ bytes: [UInt8]) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// A valid PNG whose header declares width×height (a decompression bomb when large), with one tiny IDAT.
    static func pngDeclaring(width: UInt32, height: UInt32) throws -> URL {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
        }
        let header = bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]
        let bytes = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + chunk("IEND", [])
        return try write("bomb-\(width)x\(height).png", bytes)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
