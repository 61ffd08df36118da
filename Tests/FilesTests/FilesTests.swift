import Files
import Foundation
import Testing

@Suite struct FilesTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    @Test func atomicWritesReplaceWholeFiles() throws {
        let file = folder.appendingPathComponent("f")
        try AtomicFile.write(Data("one".utf8), to: file)
        try AtomicFile.write(Data("two".utf8), to: file, permissions: 0o600)
        #expect(try String(contentsOf: file, encoding: .utf8) == "two")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["f"])
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func atomicWriteIntoAMissingFolderFailsAndLeavesNothing() {
        let file = folder.appendingPathComponent("no/such/f")
        #expect(throws: FileError.self) { try AtomicFile.write(Data("x".utf8), to: file) }
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) == [])
    }

    @Test func writeAllWritesEveryByteAndNamesAFailure() throws {
        let file = folder.appendingPathComponent("g")
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        #expect(descriptor >= 0)
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0) })
        try bytes.withUnsafeBytes { try POSIXFile.writeAll(descriptor, $0) }
        close(descriptor)
        #expect(try Data(contentsOf: file) == bytes)
        let error = #expect(throws: FileError.self) { try bytes.withUnsafeBytes { try POSIXFile.writeAll(-1, $0) } }
        #expect(error?.description.hasPrefix("write: ") == true)
    }
}
