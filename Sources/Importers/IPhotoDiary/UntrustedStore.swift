import CSQLiteGuard
import Foundation
import GRDB
import Photos
import Synchronization

/// An uploaded iPhotoDiary store is a SQLite file someone else made, and SQLite runs what a file's schema says: a
/// generated column `AS (zeroblob(100000000))` took the server from 123 MB to 1 GB in a dry run (issue 33). So the
/// file is never read by the server itself. A child process (`saessak read-untrusted iphotodiary`, under a memory and
/// a time limit like ffprobe) opens it defensively and copies only the named columns the importer reads into a new
/// file of plain tables; the server then reads that copy, defensively too. Whatever SQLite does with the upload, it
/// does it in a process that can die alone.
public enum UntrustedStore {
    /// The tables the importer reads (../shared/spec/legacy-iphotodiary.md) and every column it reads in any of them;
    /// nothing else is copied.
    static let tables: [String] = [
        "Z_METADATA", "ZCHILDDATA", "ZIMAGE", "ZDIARYDATA", "ZDIARYIMAGE", "ZEVENTDATA", "ZTREATMENTDATA", "ZHOSPITALIMAGE",
        "ZPRESCRIPTIONIMAGE", "ZVACCINATIONDATA", "ZANNIVERSARYDATA",
    ]
    static let columns: Set<String> = [
        "Z_PK", "Z_UUID", "ZANNIVERSARYDATE", "ZANNIVERSARYNAME", "ZBIRTHDAY", "ZBIRTHDAYLUNAR", "ZBIRTHDAYSOLAR", "ZCHILD",
        "ZCHILDDATA", "ZCHILDNAME", "ZCOMPLETEDATE", "ZCONDITIONDATE", "ZCONTENT", "ZDIARY", "ZDOCTOR", "ZDOCTORNAME",
        "ZDRUGSTORE", "ZEVENTDATE", "ZEVENTMEMO", "ZEVENTNAME", "ZGENDER", "ZHEIGHT", "ZHOLIDAYFLAG", "ZHOSPITAL",
        "ZHOSPITALADDRESS", "ZHOSPITALIMAGE", "ZHOSPITALNAME", "ZHOSPITALTEL", "ZIDNUM", "ZIMAGE", "ZISLUNAR", "ZLATITUDE",
        "ZLOCATION", "ZLONGITUDE", "ZNICKNAME", "ZPRESCRIPTION", "ZREVERSEADDR", "ZSTARTDATE", "ZTAG", "ZTHUMBNAILIMAGE",
        "ZTREATMENT", "ZTREATMENTCOUNT", "ZTREATMENTDATE", "ZTREATMENTRESULT", "ZTREATMENTSUBJECT", "ZVACCINATIONCOUNT",
        "ZVACCINATIONDATE", "ZVACCINATIONLOC", "ZVACCINDESCIPRTION", "ZVACCINNAME", "ZWEATHERDESC", "ZWEIGHT", "ZWRITEDATE",
    ]

    /// The largest single value read (a photo of the 2010 app is well under 5 MB).
    static let maxValueBytes: Int32 = 64 << 20
    /// The child's limits: address space (the Swift runtime and Foundation map ~200 MB before reading a byte), SQLite's
    /// own heap, and time — a real store of thousands of diaries and photos copies in seconds.
    static let childMemory = 1 << 30
    static let childHeap: Int64 = 256 << 20
    static let childTime: TimeInterval = 300

    /// The program that reads a store in a child process: this one, set by `saessak` when it starts. Unset (a test
    /// process, a fuzz target), the copy is made in this process by the same code.
    public static func readInChildProcesses(program: String) { program_.withLock { $0 = program } }
    private static let program_ = Mutex<String?>(nil)

    /// A GRDB configuration for a file that came from outside: read-only, hardened before the first read.
    static func configuration(readonly: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readonly
        configuration.foreignKeysEnabled = false
        configuration.prepareDatabase { db in
            let result = saessak_sqlite_harden(UnsafeMutableRawPointer(db.sqliteConnection), maxValueBytes)
            guard result == 0 else {  // SQLITE_OK
                throw DatabaseError(resultCode: ResultCode(rawValue: result), message: "the database cannot be opened safely")
            }
            try db.execute(sql: "PRAGMA mmap_size = 0; PRAGMA cell_size_check = ON")
        }
        return configuration
    }

    /// Copies what the importer reads from `source` into a new file at `copy`: in a child process when the program
    /// is known, else here. `name` is how messages call the source.
    static func copy(_ source: URL, to copy: URL, name: String) throws(ImportFailure) {
        guard let program = program_.withLock({ $0 }) else { return try copyHere(source, to: copy, name: name) }
        let outcome: ToolRun.Outcome
        do {
            outcome = try ToolRun.run(
                program: program, ["read-untrusted", "iphotodiary", "--name", name, "--", source.path, copy.path],
                memory: childMemory, timeout: childTime, outputLimit: 0)
        } catch {
            throw ImportFailure("\(name): the store could not be read (\(error))", korean: "\(name): 파일을 읽을 수 없습니다 (\(error))")
        }
        if outcome.succeeded { return }
        try? FileManager.default.removeItem(at: copy)
        if outcome.timedOut { throw ImportFailure(
                "\(name): reading the store took longer than \(Int(childTime)) seconds", korean: "\(name): 파일을 읽는 데 \(Int(childTime))초보다 오래 걸렸습니다") }
        // The child says what was wrong on its last line of error output (exit 3); anything else is a crash or a
        // memory limit reached, which no real store comes near.
        if outcome.status == Self.refusedStatus, let line = outcome.errors.split(separator: "\n").last {
            throw ImportFailure(line: line)
        }
        throw ImportFailure(
            "\(name): the store could not be read within the memory allowed; it is damaged or not an iPhotoDiary store",
            korean: "\(name): 허용된 메모리 안에서 파일을 읽지 못했습니다: 손상되었거나 아이포토다이어리 파일이 아닙니다")
    }

    /// The child's exit status when it refused the file with a message.
    public static let refusedStatus: Int32 = 3

    /// The child's work (and a test's): the copy made in this process. Called from the child, also caps SQLite's heap.
    public static func copyInChild(_ source: URL, to copy: URL, name: String) throws(ImportFailure) {
        capHeapAsInTheChild()
        try copyHere(source, to: copy, name: name)
    }

    /// SQLite's heap in this whole process capped as in the child (the fuzz target reads under the same cap).
    public static func capHeapAsInTheChild() { _ = saessak_sqlite_heap_limit(childHeap) }

    static func copyHere(_ source: URL, to copy: URL, name: String) throws(ImportFailure) {
        let header = (try? FileHandle(forReadingFrom: source).read(upToCount: 16)) ?? Data()
        guard header.starts(with: Array("SQLite format 3\u{0}".utf8)) else {
            throw ImportFailure(
                "\(name): not a SQLite database (an iPhotoDiary store is NewIPhotoDiary.sqlite)",
                korean: "\(name): SQLite 데이터베이스가 아닙니다 (아이포토다이어리 파일은 NewIPhotoDiary.sqlite입니다)")
        }
        try? FileManager.default.removeItem(at: copy)
        do {
            let input = try DatabaseQueue(path: source.path, configuration: configuration(readonly: true))
            var plain = Configuration()
            plain.foreignKeysEnabled = false
            let output = try DatabaseQueue(path: copy.path, configuration: plain)
            try output.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF") }
            try input.read { db in
                let present = try checkedTables(db, name: name)
                for table in tables where present.contains(table) {
                    let named = try columns(of: table, db, name: name)
                    guard !named.isEmpty else { continue }
                    let list = named.map { "\"\($0)\"" }.joined(separator: ", ")
                    let order = named.contains("Z_PK") ? " ORDER BY Z_PK" : ""
                    let rows = try Row.fetchCursor(db, sql: "SELECT \(list) FROM \"\(table)\"\(order)")
                    try output.write { out in
                        try out.execute(sql: "CREATE TABLE \"\(table)\" (\(list))")
                        let insert = try out.makeStatement(
                            sql: "INSERT INTO \"\(table)\" (\(list)) VALUES (\(named.map { _ in "?" }.joined(separator: ", ")))")
                        while let row = try rows.next() {
                            try insert.execute(arguments: StatementArguments(row.databaseValues))
                        }
                    }
                }
            }
            try output.close()
        } catch let failure as ImportFailure {
            try? FileManager.default.removeItem(at: copy)
            throw failure
        } catch let error as DatabaseError {
            try? FileManager.default.removeItem(at: copy)
            throw ImportFailure(
                "\(name): the database cannot be read (\(error.message ?? "\(error.resultCode)"))",
                korean: "\(name): 데이터베이스를 읽을 수 없습니다 (\(error.message ?? "\(error.resultCode)"))")
        } catch {
            try? FileManager.default.removeItem(at: copy)
            throw ImportFailure("\(name): the database cannot be read (\(error))", korean: "\(name): 데이터베이스를 읽을 수 없습니다 (\(error))")
        }
    }

    /// The file's tables, after refusing what an iPhotoDiary store never has: views, triggers and virtual tables
    /// (their code would run, or pretend to be a table, when read).
    static func checkedTables(_ db: Database, name: String) throws -> Set<String> {
        var present: Set<String> = []
        for row in try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master") {
            let type = text(row, "type"), object = text(row, "name"), sql = text(row, "sql")
            switch type {
            case "table":
                if sql.uppercased().hasPrefix("CREATE VIRTUAL TABLE") {
                    throw ImportFailure(
                        "\(name): not an iPhotoDiary store: it holds a virtual table (\(printable(object)))",
                        korean: "\(name): 아이포토다이어리 파일이 아닙니다: 가상 표가 있습니다 (\(printable(object)))")
                }
                present.insert(object)
            case "index":
                continue
            default:
                throw ImportFailure(
                    "\(name): not an iPhotoDiary store: it holds a \(printable(type)) (\(printable(object)))",
                    korean: "\(name): 아이포토다이어리 파일이 아닙니다: \(printable(type))이(가) 있습니다 (\(printable(object)))")
            }
        }
        return present
    }

    /// The columns of `table` the importer reads, after refusing a generated (or otherwise hidden) one among them.
    static func columns(of table: String, _ db: Database, name: String) throws -> [String] {
        var named: [String] = []
        for row in try Row.fetchAll(db, sql: "PRAGMA table_xinfo(\"\(table)\")") {
            let column = text(row, "name"), hidden = Int.fromDatabaseValue(row["hidden"] as DatabaseValue) ?? 1
            if hidden != 0 {
                throw ImportFailure(
                    "\(name): not an iPhotoDiary store: \(table).\(printable(column)) is a generated column",
                    korean: "\(name): 아이포토다이어리 파일이 아닙니다: \(table).\(printable(column))은(는) 계산된 열입니다")
            }
            if columns.contains(column) { named.append(column) }
        }
        return named
    }

    /// A column as text, never trapping on a value of another type ("" then).
    static func text(_ row: Row, _ column: String) -> String {
        String.fromDatabaseValue(row[column] as DatabaseValue) ?? ""
    }

    /// A name from the file, safe to put in a message: printable, at most 60 characters.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { !$0.properties.generalCategory.isControlOrFormat }.prefix(60)))
    }
}

extension Unicode.GeneralCategory {
    fileprivate var isControlOrFormat: Bool {
        switch self {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse: true
        default: false
        }
    }
}
