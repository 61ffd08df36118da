// libFuzzer target: a backup's `data/<table>.json` as a restore reads it — split into rows as its bytes arrive
// (JSONArrayElements, in pieces of a size the first byte picks) and each row decoded alone (Sources/Backup).
@testable import Backup
import Foundation
import Persistence

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBackupTable(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    guard let first = bytes.first else { return 0 }
    let piece = Int(first) + 1
    var elements = JSONArrayElements(maxElementBytes: 4_096)
    let decoder = JSONDecoder()
    var offset = 1
    do {
        while offset < count {
            let end = min(count, offset + piece)
            for element in try elements.feed(bytes[offset..<end]) {
                _ = try? decoder.decode([String: DumpValue].self, from: Data(element))
            }
            offset = end
        }
        try elements.finish()
    } catch {
        return 0
    }
    return 0
}
