// libFuzzer target: what people type — search queries (with highlighting), calculator keys, the activity record's
// month filter, and what browsers say they are (Sources/Diary).
import Diary

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQuery(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    if let query = try? SearchQuery(text) {
        _ = query.highlight(text + " " + text)
    }
    var calculator = Calculator()
    _ = calculator.press(keys: text)
    _ = calculator.display
    _ = try? ActivityMonth(text).interval
    _ = Activity.deviceLabel(text)
    _ = Activity.label(text)
    return 0
}
