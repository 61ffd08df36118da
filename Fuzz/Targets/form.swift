// libFuzzer target: posted forms (application/x-www-form-urlencoded), as every page's form arrives (Sources/Multipart).
import Multipart

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzForm(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let form = FormFields(parsing: String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self))
    for name in form.values.keys {
        _ = form.text(name)
        _ = form.all(name)
    }
    return 0
}
