// libFuzzer target: what people type — search queries (with highlighting) and calculator keys (Sources/Diary).
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
    return 0
}
