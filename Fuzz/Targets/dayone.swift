// libFuzzer target: a Day One export as uploaded — the ZIP, its journal JSON and every entry's conversion, in a dry
// run (photos checked, nothing stored) into a scratch data folder (Sources/Importers/DayOne).
import Diary
import Foundation
import Photos
@testable import Importers

private let folder: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-fuzz-dayone-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDayOne(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let export = folder.appendingPathComponent("export.zip")
    guard (try? Data(bytes: start, count: count).write(to: export)) != nil,
        let storage = try? PhotoFolder(dataFolder: folder),
        let intake = try? PhotoIntake(storage: storage, family: FamilyID(), now: Date(), dryRun: true)
    else { return 0 }
    var report = ImportReport(source: DayOneImport.source, dryRun: true)
    _ = try? DayOneImport.read(export: export, children: [ChildID()], family: FamilyID(), intake: intake, report: &report)
    return 0
}
