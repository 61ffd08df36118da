// libFuzzer target: a Google Photos Takeout's JSON sidecar and the file names it pairs by (Sources/Importers/Photos).
// Both come from a ZIP or a folder a family member hands to `saessak import photos`; neither may trap, and what is
// read must be what an entry takes.
import Diary
import Foundation
@testable import Importers

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTakeout(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(UnsafeBufferPointer(start: start, count: count))
    if let sidecar = TakeoutSidecar.read(data) {
        for text in [sidecar.title, sidecar.description].compactMap({ $0 }) {
            guard (try? Validate.body(text, field: "description", maxLength: TakeoutSidecar.maxTextLength)) != nil else {
                fatalError("a sidecar's text an entry refuses: \(text.debugDescription)")
            }
        }
    }
    // The same bytes as a file name: the sidecar's, and a photo's.
    let name = String(decoding: data.prefix(300), as: UTF8.self)
    if let (stem, copy) = TakeoutNames.described(bySidecar: name + ".json") {
        _ = TakeoutNames.matches(stem: stem, copy: copy, sidecar: name + ".json", photo: name)
    }
    _ = TakeoutNames.copyNumber(name)
    _ = TakeoutNames.original(ofEdited: name)
    _ = PhotoHints.isYearFolder(name)
    return 0
}
