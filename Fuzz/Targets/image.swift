// libFuzzer target: uploaded image files — type sniffing, inspection by libvips (header, EXIF capture time, GPS,
// orientation, camera) and, for what passes, the small thumbnail that decodes it, each through the sniffed format's
// loader alone — as an upload or an import meets them (Sources/Photos).
import Foundation
import Photos

private let folder: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-fuzz-image-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    try? PhotoFolder.startImageLibrary()
    return url
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImage(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    guard case .success(let format) = MediaFormat.sniff(data.prefix(MediaFormat.sniffLength)), !format.isVideo else { return 0 }
    let file = folder.appendingPathComponent("input")
    guard (try? data.write(to: file)) != nil else { return 0 }
    guard (try? ImageInspector.inspect(file, limits: PhotoLimits(maxBytes: 1 << 20, maxPixels: 4_000_000))) != nil else { return 0 }
    _ = try? Thumbnailer.thumbnail(of: file, size: .small)
    return 0
}
