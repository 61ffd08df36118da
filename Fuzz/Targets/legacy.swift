// libFuzzer target: the old iPhotoDiary app's files as a family would upload them — its Core Data SQLite store
// (first byte even) or its AnnData.plist (odd), read in a dry run into a scratch folder (Sources/Importers/IPhotoDiary).
// The store goes through the child process's reader (`UntrustedStore`, here in this process under the child's SQLite
// heap cap); `make fuzz`'s -malloc_limit_mb and -rss_limit_mb count a memory bomb as a finding.
import Diary
import Foundation
import Photos
@testable import Importers

private let folder: URL = {
    UntrustedStore.capHeapAsInTheChild()
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-fuzz-legacy-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLegacy(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 1 else { return 0 }
    let bytes = Data(bytes: start + 1, count: count - 1)
    var report = ImportReport(source: "iphotodiary", dryRun: true)
    if start[0] & 1 == 1 {
        let plist = folder.appendingPathComponent("AnnData.plist")
        guard (try? bytes.write(to: plist)) != nil else { return 0 }
        _ = try? AnnData.items(from: plist, report: &report)
    } else {
        let store = folder.appendingPathComponent("store.sqlite")
        try? FileManager.default.removeItem(at: store)
        guard (try? bytes.write(to: store)) != nil,
            let storage = try? PhotoFolder(dataFolder: folder),
            let intake = try? PhotoIntake(storage: storage, family: FamilyID(), now: Date(), dryRun: true)
        else { return 0 }
        _ = try? IPhotoDiaryImport.read(store: store, anniversaries: nil, existing: [], family: FamilyID(), now: Date(), intake: intake, report: &report)
    }
    return 0
}
