// libFuzzer target: what ffprobe says about an uploaded clip — its JSON carries the file's own tags (capture time,
// ISO 6709 place, make and model), so it is outside bytes too (Sources/Photos/Video/VideoProbe.swift).
import Foundation
import Photos

private let zone = TimeZone(identifier: "Asia/Seoul") ?? .current

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVideoProbe(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    for format in [MediaFormat.mp4, .mov, .webm] {
        _ = try? VideoProbe.read(data, format: format, limits: VideoLimits(), zone: zone)
    }
    _ = ISO6709.parse(String(decoding: data, as: UTF8.self))
    return 0
}
