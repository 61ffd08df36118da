// libFuzzer target: what an SMTP server answers (Sources/MailFormat), fed in pieces as a network would, and the
// addresses members type (they end up in headers and SMTP commands).
import MailFormat

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSMTP(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    var reader = SMTPReplyReader()
    // The first byte picks where the bytes are cut, as TCP may cut them anywhere.
    let step = max(1, Int(bytes.first ?? 1))
    var offset = 0
    reading: while offset < bytes.count {
        let end = min(bytes.count, offset + step)
        do {
            try reader.append(bytes[offset..<end])
            while let reply = try reader.next() { _ = reply.extensions; _ = reply.summary }
        } catch {
            break reading
        }
        offset = end
    }
    if let address = try? MailAddress(String(decoding: bytes, as: UTF8.self)) {
        // A stored address never carries what would end a header or a command.
        precondition(!address.value.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "<" || $0 == ">" || $0 == " " }))
    }
    _ = SMTPData.stuffed(bytes)
    return 0
}
