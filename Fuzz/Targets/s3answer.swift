// libFuzzer target: what an S3-compatible store answers — listings, multipart upload listings, errors
// (Sources/S3Answers). The answers come over the network from a server Saessak does not control.
import S3Answers

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzS3Answer(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    _ = try? S3XML.objectPage(text)
    _ = try? S3XML.uploadPage(text)
    _ = S3XML.error(text)
    for name in ["Key", "Contents", "Upload", "ETag"] {
        for element in S3XML.elements(name, in: text[...]) { _ = S3XML.unescape(element) }
    }
    return 0
}
