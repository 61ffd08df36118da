// libFuzzer target: multipart/form-data bodies (Sources/Multipart), fed whole and in two chunks cut where the
// first byte says. Nothing may trap; a body the parser accepts must report its parts in order.
import Multipart

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    guard let first = bytes.first else { return 0 }
    let body = Array(bytes.dropFirst())
    let cut = body.isEmpty ? 0 : Int(first) % body.count
    var whole: [[UInt8]] = []
    var chunked: [[UInt8]] = []
    do {
        var parser = try MultipartParser(boundary: "b0undary", maxParts: 64)
        try parser.feed(body) { event in collect(event, into: &whole) }
    } catch {}
    do {
        var parser = try MultipartParser(boundary: "b0undary", maxParts: 64)
        try parser.feed(Array(body[..<cut])) { event in collect(event, into: &chunked) }
        try parser.feed(Array(body[cut...])) { event in collect(event, into: &chunked) }
    } catch {}
    // However the bytes arrive, the parts that completed before any error agree.
    let agreed = min(whole.count, chunked.count)
    if Array(whole.prefix(agreed)) != Array(chunked.prefix(agreed)) { fatalError("chunking changed a part") }
    return 0
}

private func collect(_ event: MultipartParser.Event, into parts: inout [[UInt8]]) {
    switch event {
    case .part: parts.append([])
    case .body(let bytes): parts[parts.count - 1] += bytes
    case .partEnd: break
    }
}
