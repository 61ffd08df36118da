// libFuzzer target: old diaries as text — encoding detection and decoding (UTF-8, UTF-16 with or without a BOM,
// CP949) and the split at date headings (Sources/Importers, Sources/Diary).
import Diary
import Foundation
import Importers

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzText(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    for encoding in TextImport.Encoding.allCases {
        guard let text = try? TextImport.decode(data, as: encoding, file: "fuzz.txt") else { continue }
        _ = try? TextDiary.days(in: text, fileName: "2020-01-02.txt")
    }
    return 0
}
