// libFuzzer target: the duplicate-key check every JSON body of the API passes before it is decoded
// (Sources/Multipart/JSONDuplicateKeys.swift): any bytes, no trap, time linear in the length.
import Multipart

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONKeys(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = JSONDuplicateKeys.first(in: UnsafeBufferPointer(start: start, count: count))
    return 0
}
