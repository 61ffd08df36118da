// libFuzzer target: a backup ZIP as `saessak restore` meets it — the archive, the manifest and every file's checksum
// (Sources/Backup, Sources/ZIPReading); nothing is written.
import Backup
import Foundation

private let file: URL = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-fuzz-restore-\(getpid()).zip")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRestore(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard (try? Data(bytes: start, count: count).write(to: file)) != nil else { return 0 }
    _ = try? BackupArchive.verify(file)
    return 0
}
