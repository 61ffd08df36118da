import Crypto
import Diary
import Foundation
import Glibc
import KoreanCalendar
import Persistence
import ZIPReading

/// `saessak import text`: old diaries kept as text files (UTF-8, UTF-16 with a byte-order mark, or CP949/EUC-KR),
/// split into entries at date headings (`TextDiary`), or one file per day.
public enum TextImport {
    public enum Encoding: String, CaseIterable, Sendable {
        case auto
        case utf8 = "utf-8"
        case utf16 = "utf-16"
        case cp949
    }

    public typealias Failure = ImportFailure

    // MARK: Decoding

    /// The text of a file. `auto`: a byte-order mark says UTF-8 or UTF-16; otherwise valid UTF-8 is UTF-8 and
    /// anything else is read as CP949 (the superset of EUC-KR), strictly: a byte sequence that is not CP949 is an
    /// error naming its offset, never a replacement character.
    public static func decode(_ data: Data, as encoding: Encoding, file: String) throws -> String {
        let bytes = [UInt8](data)
        let utf16Mark = bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
        let utf8Mark = bytes.starts(with: [0xEF, 0xBB, 0xBF])
        if encoding == .utf16 || (encoding == .auto && utf16Mark) {
            guard utf16Mark else { throw Failure("\(file): UTF-16 needs a byte-order mark (FF FE or FE FF) at the start") }
            guard bytes.count % 2 == 0, let text = String(data: data, encoding: .utf16) else {
                throw Failure("\(file): not valid UTF-16")
            }
            return text
        }
        if encoding == .utf8 || (encoding == .auto && utf8Mark) {
            guard let text = String(validating: utf8Mark ? Array(bytes.dropFirst(3)) : bytes, as: UTF8.self) else {
                throw Failure("\(file): not valid UTF-8")
            }
            return text
        }
        if encoding == .auto, let text = String(validating: bytes, as: UTF8.self) { return text }
        return try cp949(bytes, file: file)
    }

    /// CP949 → UTF-8 with iconv, which fails (EILSEQ) on a sequence CP949 does not have.
    static func cp949(_ bytes: [UInt8], file: String) throws -> String {
        let converter = iconv_open("UTF-8", "CP949")
        guard converter != iconv_t(bitPattern: -1) else { throw Failure("this system's iconv has no CP949") }
        defer { iconv_close(converter) }
        var input = bytes.map { CChar(bitPattern: $0) }
        var output = [CChar](repeating: 0, count: bytes.count * 3 + 4)
        let (result, left): (Int, Int) = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                var inPointer: UnsafeMutablePointer<CChar>? = inBuffer.baseAddress
                var inLeft = inBuffer.count
                var outPointer: UnsafeMutablePointer<CChar>? = outBuffer.baseAddress
                var outLeft = outBuffer.count
                let result = iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
                return (result == -1 ? -1 : outBuffer.count - outLeft, inLeft)
            }
        }
        guard result >= 0 else {
            throw Failure("\(file): byte \(bytes.count - left) is not CP949/EUC-KR text (try --encoding)")
        }
        return String(decoding: output.prefix(result).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: Reading

    /// `TextDiary.days` with its failure in this importer's words (kept out of a closure: typed throws there crash
    /// this compiler).
    static func parse(_ text: String, name: String) throws -> (days: [TextDiary.Day], preamble: String?) {
        let result: Result<(days: [TextDiary.Day], preamble: String?), TextDiary.Failure>
        do {
            result = .success(try TextDiary.days(in: text, fileName: name))
        } catch {
            result = .failure(error)
        }
        switch result {
        case .success(let parsed): return parsed
        case .failure(let failure): throw Failure(failure.description)
        }
    }

    /// Unpacks the `.txt` files of a ZIP (a folder of diaries sent as one file) flat into `folder`, refusing an
    /// archive that cannot be read or that unpacks to more than `maxBytes`. Returns how many files it wrote.
    @discardableResult
    public static func unpack(zip: URL, into folder: URL, maxBytes: Int = 512 * 1024 * 1024) throws -> Int {
        let name = zip.lastPathComponent
        let archive = try ImportArchive.open(zip)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var written = 0, total = 0
        for entry in archive.members where entry.isFile && !entry.path.hasPrefix("__MACOSX/") {
            let file = entry.name
            guard file.lowercased().hasSuffix(".txt"), !file.hasPrefix(".") else { continue }
            // The bytes that really come out count, not the sizes the archive declares (issue 17).
            let data = try ImportArchive.data(of: entry, in: archive, maxBytes: UInt64(max(0, maxBytes - total)))
            total += data.count
            guard total <= maxBytes else { throw Failure("\(name): more than \(maxBytes / 1_048_576) MB of text") }
            // Two files of one name in different folders both stay.
            var target = folder.appendingPathComponent(file)
            if FileManager.default.fileExists(atPath: target.path) {
                target = folder.appendingPathComponent("\(written)-\(file)")
            }
            try data.write(to: target, options: .atomic)
            written += 1
        }
        guard written > 0 else { throw Failure("\(name): no .txt files in the archive") }
        return written
    }

    /// The files to read: a file, or every `.txt` file in a folder (sorted by name).
    public static func files(at path: URL) throws -> [URL] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isFolder) else {
            throw Failure("\(path.path): no such file or folder")
        }
        guard isFolder.boolValue else { return [path] }
        let names = try FileManager.default.contentsOfDirectory(atPath: path.path).filter { $0.lowercased().hasSuffix(".txt") }.sorted()
        guard !names.isEmpty else { throw Failure("\(path.path): no .txt files in the folder") }
        return names.map { path.appendingPathComponent($0) }
    }

    /// Reads the files into entries for `children` (all or nothing: the first unreadable file or bad date stops
    /// the import before anything is written).
    public static func items(
        from files: [URL], encoding: Encoding, children: [ChildID], report: inout ImportReport,
        progress: TerminalProgress? = nil
    ) throws -> [ImportBatch.EntryItem] {
        var items: [ImportBatch.EntryItem] = []
        defer { progress?.finish() }
        for (index, file) in files.enumerated() {
            progress?.update(index)
            let name = file.lastPathComponent
            let text = try decode(try Data(contentsOf: file), as: encoding, file: name)
            let parsed = try parse(text, name: name)
            if let preamble = parsed.preamble {
                report.skip(
                    "\(name): \(preamble.count) characters before the first date heading",
                    "\(name): 첫 날짜 제목 앞의 \(preamble.count)자는 가져오지 않았습니다")
            }
            for day in parsed.days {
                let content: EntryContent
                do {
                    content = try EntryContent(
                        title: day.title, body: day.body, date: LocalDateTime(date: day.date, time: try ClockTime(hour: 12, minute: 0)),
                        childIDs: children, tags: ["가져옴"])
                } catch let error as ValidationError {
                    throw Failure("\(name)\(day.line.map { ", line \($0)" } ?? ""): \(error.description)")
                }
                // The same day's text in the same file is the same item, however often it is imported.
                let key = SHA256.hash(data: Data("\(name)\u{0}\(day.date.iso)\u{0}\(day.body)".utf8)).map { String(format: "%02x", $0) }.joined()
                items.append(.init(sourceKey: key, content: content))
            }
            report.files += 1
            progress?.update(index + 1)
        }
        report.count("entries", items.count)
        return items
    }
}
