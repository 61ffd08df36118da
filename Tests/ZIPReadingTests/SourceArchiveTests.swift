import CInflate
import Foundation
import Testing

@testable import ZIPReading

/// ZIPs built byte by byte here, so each test says exactly what the archive holds: stored and deflated members,
/// directories, a deflate stream that never ends, a member that lies about its size, a wrong checksum, an unknown
/// method, and offsets that point outside the file.
@Suite struct SourceArchiveTests {
    struct Member {
        var name: String
        var content: [UInt8]
        var method: UInt16 = 8
        /// What the headers declare; nil for the truth.
        var declaredSize: UInt32?
        var crc: UInt32?
        /// The compressed bytes as stored; nil for a proper encoding of `content`.
        var stored: [UInt8]?
    }

    let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-zip-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static func deflate(_ bytes: [UInt8], finish: Bool = true) -> [UInt8] {
        var stream = z_stream()
        _ = deflateInit2_(&stream, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: bytes.count + 1024)
        let produced = input.withUnsafeMutableBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                stream.next_in = input.baseAddress
                stream.avail_in = uInt(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = uInt(output.count)
                _ = CInflate.deflate(&stream, finish ? Z_FINISH : Z_SYNC_FLUSH)
                return output.count - Int(stream.avail_out)
            }
        }
        return Array(output.prefix(produced))
    }

    static func le(_ value: UInt64, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }

    func zip(_ members: [Member], localOffsetShift: UInt32 = 0) throws -> URL {
        var file: [UInt8] = [], central: [UInt8] = []
        for member in members {
            let data = member.stored ?? (member.method == 8 ? Self.deflate(member.content) : member.content)
            let crc = member.crc ?? UInt32(member.content.withUnsafeBufferPointer { CInflate.crc32(0, $0.baseAddress, uInt($0.count)) })
            let size = UInt64(member.declaredSize ?? UInt32(member.content.count))
            let name = Array(member.name.utf8)
            let common = Self.le(UInt64(member.method), 2) + Self.le(0, 4) + Self.le(UInt64(crc), 4) + Self.le(UInt64(data.count), 4)
                + Self.le(size, 4) + Self.le(UInt64(name.count), 2) + Self.le(0, 2)
            central += Self.le(0x0201_4b50, 4) + Self.le(20, 2) + Self.le(20, 2) + Self.le(0, 2) + common
                + Self.le(0, 2) + Self.le(0, 2) + Self.le(0, 2) + Self.le(0, 4) + Self.le(UInt64(UInt32(file.count) &+ localOffsetShift), 4) + name
            file += Self.le(0x0403_4b50, 4) + Self.le(20, 2) + Self.le(0, 2) + common + name + data
        }
        let end = Self.le(0x0605_4b50, 4) + Self.le(0, 4) + Self.le(UInt64(members.count), 2) + Self.le(UInt64(members.count), 2)
            + Self.le(UInt64(central.count), 4) + Self.le(UInt64(file.count), 4) + Self.le(0, 2)
        let url = folder.appendingPathComponent("\(UUID().uuidString).zip")
        try Data(file + central + end).write(to: url)
        return url
    }

    func failure(_ url: URL, _ member: Int = 0) -> String? {
        do {
            let archive = try SourceArchive.open(url)
            _ = try archive.data(of: archive.members[member])
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func readsStoredDeflatedAndDirectoryMembers() throws {
        let text = Array("하늘이의 첫 걸음\n".utf8) + [UInt8](repeating: 32, count: 100_000)
        let url = try zip([
            Member(name: "photos/", content: [], method: 0), Member(name: "a.txt", content: text),
            Member(name: "b.bin", content: [0, 1, 2, 255], method: 0),
        ])
        let archive = try SourceArchive.open(url)
        #expect(archive.members.map(\.path) == ["photos/", "a.txt", "b.bin"])
        #expect(archive.members.map(\.isFile) == [false, true, true])
        #expect(archive.members[1].name == "a.txt")
        #expect(try archive.data(of: archive.members[1]) == Data(text))
        #expect(try archive.data(of: archive.members[2]) == Data([0, 1, 2, 255]))
        var chunks = 0
        try archive.read(archive.members[1]) { _ in chunks += 1 }
        #expect(chunks > 1)  // streamed, not whole
    }

    @Test func aMembersTimeIsTheArchivesWallClockOrNothing() {
        // 2024-02-29 13:45:58: year 44 from 1980, month 2, day 29; hour 13, minute 45, 29 two-second steps.
        #expect(SourceArchive.dosTime(date: 44 << 9 | 2 << 5 | 29, time: 13 << 11 | 45 << 5 | 29) == "2024-02-29T13:45:58")
        #expect(SourceArchive.dosTime(date: 0, time: 0) == nil)  // month 0: a zeroed header
        #expect(SourceArchive.dosTime(date: 43 << 9 | 2 << 5 | 29, time: 0) == nil)  // 2023 has no 29 February
        #expect(SourceArchive.dosTime(date: 44 << 9 | 1 << 5 | 1, time: 24 << 11) == nil)
    }

    @Test func refusesWhatItCannotTrust() throws {
        let content = [UInt8](repeating: 65, count: 5000)
        #expect(failure(try zip([Member(name: "x", content: content, stored: Self.deflate(content, finish: false))]))?.contains("cut short") == true)
        #expect(failure(try zip([Member(name: "x", content: content, declaredSize: 1000)]))?.contains("more than the 1000 bytes") == true)
        #expect(failure(try zip([Member(name: "x", content: content, declaredSize: 9000)]))?.contains("declares 9000") == true)
        #expect(failure(try zip([Member(name: "x", content: content, crc: 1)]))?.contains("checksum") == true)
        #expect(failure(try zip([Member(name: "x", content: content, method: 12)]))?.contains("method 12") == true)
        #expect(failure(try zip([Member(name: "x", content: content)], localOffsetShift: 1 << 30))?.contains("local header") == true)
        #expect(failure(try zip([Member(name: "x", content: Array(repeating: 1, count: 64), stored: [0xFF, 0xFF, 0xFF])]))?.contains("damaged") == true)
    }

    @Test func capsWhatComesOut() throws {
        let url = try zip([Member(name: "bomb", content: [UInt8](repeating: 32, count: 1 << 20))])
        let archive = try SourceArchive.open(url)
        #expect(throws: ArchiveError.self) { try archive.data(of: archive.members[0], maxBytes: 1000) }
        #expect(try archive.data(of: archive.members[0], maxBytes: 1 << 20).count == 1 << 20)
    }

    @Test func notAZipOrCutShort() throws {
        let url = try zip([Member(name: "a", content: Array("x".utf8))])
        let bytes = try Data(contentsOf: url)
        for length in [0, 10, bytes.count - 1] {
            let cut = folder.appendingPathComponent("cut-\(length).zip")
            try bytes.prefix(length).write(to: cut)
            #expect(throws: ArchiveError.self) { try SourceArchive.open(cut) }
        }
        #expect(throws: ArchiveError.self) { try SourceArchive.open(folder.appendingPathComponent("missing.zip")) }
    }
}

extension SourceArchiveTests {
    @Test func findsFilesByPathOnlyWhenThePathIsUnique() throws {
        let single = try SourceArchive.open(try zip([Member(name: "a", content: [1]), Member(name: "d/", content: [], method: 0)]))
        #expect(single.hasUniquePaths && single.member("a")?.size == 1 && single.member("d/") == nil && single.member("b") == nil)
        let twice = try SourceArchive.open(try zip([Member(name: "a", content: [1]), Member(name: "a", content: [2])]))
        #expect(!twice.hasUniquePaths && twice.member("a") == nil)
    }
}
