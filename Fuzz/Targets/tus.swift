// libFuzzer target: the headers of a resumable upload (tus 1.0) — Upload-Length/Upload-Offset numbers and
// Upload-Metadata with its file name (Sources/Multipart/UploadHeaders.swift).
import Multipart

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTus(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    _ = UploadHeaders.byteCount(text)
    _ = try? UploadHeaders.metadata(text)
    if let name = try? UploadHeaders.fileName(text) {
        precondition(!name.isEmpty && name.utf8.count <= 255 && !name.contains("/"), "a file name with a path: \(name)")
    }
    return 0
}
