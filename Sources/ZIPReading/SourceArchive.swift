import CInflate
import Foundation

/// A ZIP archive from outside (a Day One export, a folder of text diaries, a backup), read without trusting a byte of it: every
/// offset is checked against the file, members are inflated with a count of the bytes that really come out — never
/// the size the archive declares — and capped, and a deflate stream that ends early is an error, not a wait.
///
/// Saessak's own reader, not ZIPFoundation's: on a 1.4 KB export whose deflate stream was cut short, ZIPFoundation
/// 0.9.20 read on at end of file for ever (found by `make fuzz`, issue 16), and it trusts declared sizes (issue 17).
/// Stored and deflated members, ZIP64 sizes and offsets; no encryption, no multi-disk archives.
public final class SourceArchive {
    public struct Member: Sendable {
        /// The name as stored (UTF-8; `/`-separated).
        public let path: String
        public let method: UInt16
        public let crc32: UInt32
        public let compressedSize: UInt64
        /// What the archive says the member inflates to; checked, never trusted.
        public let size: UInt64
        public let localHeaderOffset: UInt64
        /// When the file was last changed, as the archive recorded it (MS-DOS date and time, a wall clock without a
        /// zone): `YYYY-MM-DDTHH:MM:SS`, or nil when the fields do not make a date.
        public let modified: String?

        public var isFile: Bool { !path.hasSuffix("/") }
        /// The last component of the path.
        public var name: String { path.split(separator: "/").last.map(String.init) ?? "" }
    }

    /// The whole of a member's or an archive's inflated bytes may not pass these (a 1 MB ZIP once declared nothing
    /// of the 1 GiB of spaces inside it).
    public static let maxMemberBytes: UInt64 = 4 << 30
    public static let maxMembers = 200_000

    public let members: [Member]
    /// Files by path; nil when two files share a path (which an archive of ours never does).
    private let byPath: [String: Member]?
    private let handle: FileHandle
    private let fileSize: UInt64
    private let file: String

    /// Opens a ZIP for reading; one that is not a ZIP, is cut short or contradicts itself is refused by name.
    public static func open(_ url: URL) throws(ArchiveError) -> SourceArchive {
        let file = url.lastPathComponent
        guard let handle = try? FileHandle(forReadingFrom: url) else { throw ArchiveError("\(file): cannot be opened", korean: "\(file): 열 수 없습니다") }
        do {
            return try SourceArchive(handle: handle, file: file)
        } catch {
            try? handle.close()
            throw error as? ArchiveError ?? ArchiveError("\(file): not a ZIP archive, or it is cut short", korean: "\(file): ZIP 파일이 아니거나 끝이 잘렸습니다")
        }
    }

    deinit { try? handle.close() }

    private init(handle: FileHandle, file: String) throws {
        self.handle = handle
        self.file = file
        fileSize = try handle.seekToEnd()
        members = try Self.centralDirectory(handle, fileSize: fileSize, file: file)
        var byPath: [String: Member]? = [:]
        for member in members where member.isFile {
            if byPath?.updateValue(member, forKey: member.path) != nil { byPath = nil }
        }
        self.byPath = byPath
    }

    /// True when no two files of the archive share a path.
    public var hasUniquePaths: Bool { byPath != nil }

    /// The file at `path`, if the archive holds exactly one.
    public func member(_ path: String) -> Member? { byPath?[path] }

    /// The bytes of a member, at most `maxBytes` of them, its checksum verified.
    public func data(of member: Member, maxBytes: UInt64 = SourceArchive.maxMemberBytes) throws -> Data {
        var data = Data()
        try read(member, maxBytes: maxBytes) { data.append(contentsOf: $0) }
        return data
    }

    /// Streams a member's bytes to `consume` as they inflate; an error if it yields more than `maxBytes` or more or
    /// less than it declares, if its stream is broken or cut short, or if its checksum is wrong.
    public func read(_ member: Member, maxBytes: UInt64 = SourceArchive.maxMemberBytes, _ consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        let stream = try stream(member, maxBytes: maxBytes)
        while let chunk = try stream.next() { try chunk.withUnsafeBytes(consume) }
    }

    /// A member's bytes as the reader asks for them, a chunk (at most 64 KiB) at a time, checked as `read` checks them.
    public func stream(_ member: Member, maxBytes: UInt64 = SourceArchive.maxMemberBytes) throws -> MemberStream {
        let place = "\(file): \(member.path)"
        guard member.size <= maxBytes else { throw ArchiveError(
                "\(place) is larger than \(maxBytes / 1_048_576) MB", korean: "\(place): \(maxBytes / 1_048_576) MB보다 큽니다") }
        guard member.method == 0 || member.method == 8 else {
            throw ArchiveError(
                "\(place) is compressed with method \(member.method), which Saessak cannot read (only stored and deflate)",
                korean: "\(place): 새싹이 읽지 못하는 압축 방식(\(member.method))입니다 (저장과 deflate만 읽습니다)")
        }
        let start = try dataStart(of: member)
        guard start <= fileSize, member.compressedSize <= fileSize - start else { throw ArchiveError("\(place) lies past the end of the archive", korean: "\(place): ZIP 파일의 끝을 넘어 있습니다") }
        return try MemberStream(archive: self, member: member, place: place, start: start, maxBytes: maxBytes)
    }

    /// One member being read: the compressed bytes are read from the archive as the inflater needs them (from where
    /// this stream left off, so two streams of one archive may take turns), the inflated bytes counted and checked.
    public final class MemberStream {
        private let archive: SourceArchive
        private let member: Member
        private let place: String
        private let limit: UInt64
        private var offset: UInt64
        private var remaining: UInt64
        private var produced: UInt64 = 0
        private var checksum = CInflate.crc32(0, nil, 0)
        private var finished = false
        /// zlib's stream, where it stays (its state points back at it): nil for a stored member.
        private let inflater: UnsafeMutablePointer<z_stream>?
        private let input = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        private let output = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)

        fileprivate init(archive: SourceArchive, member: Member, place: String, start: UInt64, maxBytes: UInt64) throws {
            self.archive = archive
            self.member = member
            self.place = place
            limit = min(member.size, maxBytes)
            offset = start
            remaining = member.compressedSize
            if member.method == 8 {
                let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
                stream.initialize(to: z_stream())
                guard saessak_inflate_init_raw(stream) == Z_OK else {
                    stream.deallocate()
                    input.deallocate()
                    output.deallocate()
                    throw ArchiveError("\(place): the inflater could not start", korean: "\(place): 압축을 풀기 시작할 수 없습니다")
                }
                inflater = stream
            } else {
                inflater = nil
            }
        }

        deinit {
            if let inflater {
                inflateEnd(inflater)
                inflater.deallocate()
            }
            input.deallocate()
            output.deallocate()
        }

        /// The next bytes, or nil once the member has been read whole and found to be what the archive says it is.
        public func next() throws -> Data? {
            while !finished {
                let count = try inflater.map(inflateSome) ?? copyStored()
                if count > 0 { return try emit(count) }
            }
            guard produced == member.size else { throw ArchiveError(
                "\(place) holds \(produced) bytes but declares \(member.size)", korean: "\(place): \(member.size)바이트라고 적혀 있지만 \(produced)바이트입니다") }
            guard UInt32(truncatingIfNeeded: checksum) == member.crc32 else { throw ArchiveError("\(place) is damaged (wrong checksum)", korean: "\(place): 손상되었습니다 (체크섬이 맞지 않습니다)") }
            return nil
        }

        /// Reads compressed (or stored) bytes into `input`; how many.
        private func fill(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            guard remaining > 0 else { throw ArchiveError("\(place) is cut short", korean: "\(place): 끝이 잘렸습니다") }
            let count = Int(min(remaining, UInt64(buffer.count)))
            try archive.handle.seek(toOffset: offset)
            let chunk = try archive.readChunk(UInt64(count), place: place)
            chunk.copyBytes(to: buffer.bindMemory(to: UInt8.self), count: count)
            offset += UInt64(count)
            remaining -= UInt64(count)
            return count
        }

        private func copyStored() throws -> Int {
            guard remaining > 0 else { finished = true; return 0 }
            return try fill(into: output)
        }

        private func inflateSome(_ inflater: UnsafeMutablePointer<z_stream>) throws -> Int {
            if inflater.pointee.avail_in == 0 {
                let count = try fill(into: input)
                inflater.pointee.next_in = input.baseAddress?.assumingMemoryBound(to: Bytef.self)
                inflater.pointee.avail_in = uInt(count)
            }
            inflater.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
            inflater.pointee.avail_out = uInt(output.count)
            let result = CInflate.inflate(inflater, Z_NO_FLUSH)
            let count = output.count - Int(inflater.pointee.avail_out)
            guard result == Z_OK || result == Z_STREAM_END || result == Z_BUF_ERROR else {
                throw ArchiveError("\(place) is damaged (its compressed data does not inflate)", korean: "\(place): 손상되었습니다 (압축이 풀리지 않습니다)")
            }
            if result == Z_STREAM_END { finished = true }
            // No progress with input left means a broken stream; with none left, the next call reads on.
            if count == 0, result == Z_BUF_ERROR, inflater.pointee.avail_in > 0 {
                throw ArchiveError("\(place) is damaged (its compressed data does not inflate)", korean: "\(place): 손상되었습니다 (압축이 풀리지 않습니다)")
            }
            return count
        }

        private func emit(_ count: Int) throws -> Data {
            produced += UInt64(count)
            guard produced <= limit else { throw ArchiveError(
                "\(place) holds more than the \(member.size) bytes it declares", korean: "\(place): 적혀 있는 \(member.size)바이트보다 깁니다") }
            guard let base = output.baseAddress else { return Data() }
            checksum = CInflate.crc32(checksum, base.assumingMemoryBound(to: Bytef.self), uInt(count))
            return Data(bytes: base, count: count)
        }
    }

    fileprivate func readChunk(_ count: UInt64, place: String) throws -> Data {
        let data = try handle.read(upToCount: Int(count)) ?? Data()
        guard data.count == Int(count) else { throw ArchiveError("\(place) is cut short", korean: "\(place): 끝이 잘렸습니다") }
        return data
    }

    /// Where a member's data begins: after its local header, whose name and extra field may differ in length from
    /// the central directory's.
    private func dataStart(of member: Member) throws -> UInt64 {
        let place = "\(file): \(member.path)"
        guard member.localHeaderOffset <= fileSize, fileSize - member.localHeaderOffset >= 30 else {
            throw ArchiveError("\(place) has no local header", korean: "\(place): 로컬 헤더가 없습니다")
        }
        try handle.seek(toOffset: member.localHeaderOffset)
        let header = [UInt8](try readChunk(30, place: place))
        guard Self.uint32(header, 0) == 0x0403_4b50 else { throw ArchiveError("\(place) has no local header", korean: "\(place): 로컬 헤더가 없습니다") }
        return member.localHeaderOffset + 30 + UInt64(Self.uint16(header, 26)) + UInt64(Self.uint16(header, 28))
    }

    // MARK: The central directory

    private static func centralDirectory(_ handle: FileHandle, fileSize: UInt64, file: String) throws -> [Member] {
        let broken = ArchiveError("\(file): not a ZIP archive, or it is cut short", korean: "\(file): ZIP 파일이 아니거나 끝이 잘렸습니다")
        // The end record is in the last 22 + 65,535 bytes (its comment is at most that long).
        let tailLength = min(fileSize, 22 + 65_535)
        try handle.seek(toOffset: fileSize - tailLength)
        let tail = [UInt8](try handle.read(upToCount: Int(tailLength)) ?? Data())
        guard tail.count >= 22, let end = stride(from: tail.count - 22, through: 0, by: -1).first(where: { uint32(tail, $0) == 0x0605_4b50 })
        else { throw broken }
        var count = UInt64(uint16(tail, end + 10))
        var size = UInt64(uint32(tail, end + 12))
        var offset = UInt64(uint32(tail, end + 16))
        // ZIP64: the locator just before the end record points at the ZIP64 end record.
        if end >= 20, uint32(tail, end - 20) == 0x0706_4b50 {
            let recordOffset = uint64(tail, end - 20 + 8)
            guard recordOffset <= fileSize, fileSize - recordOffset >= 56 else { throw broken }
            try handle.seek(toOffset: recordOffset)
            let record = [UInt8](try handle.read(upToCount: 56) ?? Data())
            guard record.count == 56, uint32(record, 0) == 0x0606_4b50 else { throw broken }
            (count, size, offset) = (uint64(record, 32), uint64(record, 40), uint64(record, 48))
        }
        guard count <= UInt64(maxMembers) else { throw ArchiveError(
                "\(file): more than \(maxMembers) files in the archive", korean: "\(file): 파일이 \(maxMembers)개보다 많습니다") }
        guard offset <= fileSize, size <= fileSize - offset, size <= 64 << 20 else { throw broken }
        try handle.seek(toOffset: offset)
        let directory = [UInt8](try handle.read(upToCount: Int(size)) ?? Data())
        guard directory.count == Int(size) else { throw broken }

        var members: [Member] = []
        var position = 0
        for _ in 0..<count {
            guard directory.count - position >= 46, uint32(directory, position) == 0x0201_4b50 else { throw broken }
            let nameLength = Int(uint16(directory, position + 28)), extraLength = Int(uint16(directory, position + 30))
            let commentLength = Int(uint16(directory, position + 32))
            guard directory.count - position - 46 >= nameLength + extraLength + commentLength else { throw broken }
            let nameStart = position + 46
            var compressed = UInt64(uint32(directory, position + 20)), size = UInt64(uint32(directory, position + 24))
            var local = UInt64(uint32(directory, position + 42))
            // ZIP64 extra field: the 64-bit values, in this order, for those that are 0xFFFFFFFF above.
            var extra = nameStart + nameLength
            let extraEnd = extra + extraLength
            while extraEnd - extra >= 4 {
                let id = uint16(directory, extra), length = Int(uint16(directory, extra + 2))
                guard extraEnd - extra - 4 >= length else { throw broken }
                if id == 0x0001 {
                    var field = extra + 4
                    let fieldEnd = field + length
                    if size == 0xFFFF_FFFF, fieldEnd - field >= 8 { size = uint64(directory, field); field += 8 }
                    if compressed == 0xFFFF_FFFF, fieldEnd - field >= 8 { compressed = uint64(directory, field); field += 8 }
                    if local == 0xFFFF_FFFF, fieldEnd - field >= 8 { local = uint64(directory, field); field += 8 }
                }
                extra += 4 + length
            }
            members.append(Member(
                path: String(decoding: directory[nameStart..<nameStart + nameLength], as: UTF8.self),
                method: uint16(directory, position + 10), crc32: uint32(directory, position + 16),
                compressedSize: compressed, size: size, localHeaderOffset: local,
                modified: dosTime(date: uint16(directory, position + 14), time: uint16(directory, position + 12))))
            position = nameStart + nameLength + extraLength + commentLength
        }
        return members
    }

    /// An MS-DOS date and time (the year from 1980, seconds in twos) as `YYYY-MM-DDTHH:MM:SS`; nil when a field is
    /// out of its range (month 0, hour 25 — what a zeroed or broken header gives).
    static func dosTime(date: UInt16, time: UInt16) -> String? {
        let (year, month, day) = (1980 + Int(date >> 9), Int(date >> 5 & 0xF), Int(date & 0x1F))
        let (hour, minute, second) = (Int(time >> 11), Int(time >> 5 & 0x3F), Int(time & 0x1F) * 2)
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        let days = [31, year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day <= days[month - 1] else { return nil }
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, hour, minute, second)
    }

    private static func uint16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }

    private static func uint32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) }
    }

    private static func uint64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
    }
}

/// Why an archive or one of its members cannot be read; the text names the file and what is wrong, in English and
/// (for the pages in Korean) in Korean.
public struct ArchiveError: Error, CustomStringConvertible {
    public let description: String
    public let korean: String?

    public init(_ description: String, korean: String? = nil) {
        self.description = description
        self.korean = korean
    }
}
