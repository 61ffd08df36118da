import Crypto
import Foundation
import Persistence
import Synchronization
import ZIPReading

/// A backup's `data/<table>.json` files read as a load asks for them: each inflated as it is read, split into its
/// rows (`JSONArrayElements`) and each row decoded alone, so memory holds a batch of rows, never a table.
final class ArchiveTables: DumpReader {
    private struct Open {
        let table: String
        let stream: SourceArchive.MemberStream
        var elements = JSONArrayElements()
        var waiting: [[UInt8]] = []
    }

    private struct State {
        let archive: SourceArchive
        var open: Open?
        var finished: Set<String> = []
    }

    private let state: Mutex<State>

    /// Opens the backup (already verified: `BackupArchive.verify`) for reading of its own.
    init(_ source: URL) throws {
        do {
            state = Mutex(State(archive: try SourceArchive.open(source)))
        } catch {
            throw BackupArchive.Failure.unreadable("\(source.lastPathComponent) is not a ZIP file, or it is cut short")
        }
    }

    func rows(of table: String, limit: Int) throws -> [[String: DumpValue]] {
        let path = "data/\(table).json"
        return try Self.decoded(try elements(of: table, path: path, limit: limit), path: path)
    }

    /// Up to `limit` rows of `table` as they stand in the file, inflated and split but not yet decoded.
    private func elements(of table: String, path: String, limit: Int) throws -> [[UInt8]] {
        try state.withLock { state in
            guard !state.finished.contains(table) else { return [] }
            if state.open?.table != table {
                guard let member = state.archive.member(path) else { throw BackupArchive.Failure.damaged("\(path) is missing") }
                do {
                    state.open = Open(table: table, stream: try state.archive.stream(member, maxBytes: 1 << 34))
                } catch {
                    throw BackupArchive.Failure.damaged("\(path) cannot be read (\(error))")
                }
            }
            guard var open = state.open else { return [] }
            defer { state.open = open }
            var elements: [[UInt8]] = []
            while elements.count < limit {
                if !open.waiting.isEmpty {
                    let taken = min(limit - elements.count, open.waiting.count)
                    elements += open.waiting.prefix(taken)
                    open.waiting.removeFirst(taken)
                    continue
                }
                let chunk: Data?
                do {
                    chunk = try open.stream.next()
                } catch {
                    throw BackupArchive.Failure.damaged("\(path) cannot be read (\(error))")
                }
                do {
                    if let chunk {
                        open.waiting = try open.elements.feed(chunk)
                    } else {
                        try open.elements.finish()
                        state.finished.insert(table)
                        break
                    }
                } catch {
                    throw BackupArchive.Failure.damaged("\(path) is not a table of rows: \(error)")
                }
            }
            return elements
        }
    }

    /// Rows decoded, a large batch in parts on every core: decoding (Foundation's `JSONDecoder`) is most of reading
    /// a backup, and the database writing the rows needs a fraction of a core (docs/performance.md).
    private static func decoded(_ elements: [[UInt8]], path: String) throws -> [[String: DumpValue]] {
        @Sendable func decode(_ part: ArraySlice<[UInt8]>) throws -> [[String: DumpValue]] {
            let decoder = JSONDecoder()
            do {
                return try part.map { try decoder.decode([String: DumpValue].self, from: Data($0)) }
            } catch {
                throw BackupArchive.Failure.damaged("\(path) is not a table of rows")
            }
        }
        let parts = min(ProcessInfo.processInfo.activeProcessorCount, elements.count / 100)
        guard parts > 1 else { return try decode(elements[...]) }
        let size = (elements.count + parts - 1) / parts
        let results = Mutex([Result<[[String: DumpValue]], any Error>?](repeating: nil, count: parts))
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let range = (part * size)..<min(elements.count, (part + 1) * size)
            let result = Result { try decode(elements[range]) }
            results.withLock { $0[part] = result }
        }
        return try results.withLock { $0 }.flatMap { try ($0 ?? .success([])).get() }
    }
}

/// A dump written straight to files, one per table, as its rows are read: `[`, a row a line (keys sorted, so equal
/// data gives equal bytes), `]`. Each file's SHA-256 and row count are kept for the manifest, and the photo rows'
/// content hashes and types for the photo files that follow.
final class TableFiles: DumpSink {
    struct Written {
        let table: String
        let file: URL
        let sha256: String
        let rows: Int
    }

    private struct Current {
        let table: String
        let file: URL
        let handle: FileHandle
        var hasher = SHA256()
        var buffer = Data()
        var rows = 0
    }

    private struct State {
        var current: Current?
        var written: [Written] = []
        var photos: [(sha256: String, mimeType: String)] = []
    }

    private let folder: URL
    private let state = Mutex(State())
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    init(folder: URL) {
        self.folder = folder
    }

    func begin(_ table: String) throws {
        try state.withLock { state in
            try Self.close(&state)
            let file = folder.appendingPathComponent("\(table).json")
            // The diary's words (and, when asked, resident numbers): for the process's own user alone.
            guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw BackupArchive.Failure.unreadable("cannot write \(file.path)")
            }
            var current = Current(table: table, file: file, handle: try FileHandle(forWritingTo: file))
            current.buffer.append(contentsOf: "[".utf8)
            state.current = current
        }
    }

    func write(_ row: [String: DumpValue], of table: String) throws {
        let line = try Self.encoder.encode(row)
        try state.withLock { state in
            guard var current = state.current, current.table == table else {
                throw BackupArchive.Failure.damaged("a row of \(table) came outside its table")
            }
            state.current = nil  // the buffer referenced once, so it grows in place
            current.buffer.append(contentsOf: (current.rows == 0 ? "\n" : ",\n").utf8)
            current.buffer.append(line)
            current.rows += 1
            if current.buffer.count >= 1 << 20 { try Self.flush(&current) }
            if table == "photos" {
                guard case .text(let sha) = row["sha256"], case .text(let mime) = row["mimeType"] else {
                    throw BackupArchive.Failure.damaged("a photo row without its content hash or type")
                }
                state.photos.append((sha, mime))
            }
            state.current = current
        }
    }

    /// The files, in the order their tables came, once the last is closed.
    func finish() throws -> (tables: [Written], photos: [(sha256: String, mimeType: String)]) {
        try state.withLock { state in
            try Self.close(&state)
            return (state.written, state.photos)
        }
    }

    private static func flush(_ current: inout Current) throws {
        current.hasher.update(data: current.buffer)
        try current.handle.write(contentsOf: current.buffer)
        current.buffer.removeAll(keepingCapacity: true)
    }

    private static func close(_ state: inout State) throws {
        guard var current = state.current else { return }
        current.buffer.append(contentsOf: "\n]\n".utf8)
        try flush(&current)
        try current.handle.close()
        state.written.append(
            Written(table: current.table, file: current.file, sha256: BackupArchive.hex(current.hasher.finalize()), rows: current.rows))
        state.current = nil
    }
}
