import Foundation
import GRDB
import KoreanCalendar

/// A Core Data SQLite store read by table and column name, leniently: a missing column reads as nil, numbers
/// stored as text or text stored as numbers are converted, because the legacy app's fourteen model versions
/// changed types as they went (../shared/spec/legacy-iphotodiary.md).
struct CoreDataStore {
    let queue: DatabaseQueue
    let fileName: String
    let tables: Set<String>
    /// `Z_METADATA.Z_UUID`: the store's identity, the stem of every source key.
    let identity: String

    /// Opens the plain copy `UntrustedStore` made of an uploaded store (hardened all the same); `name` is the
    /// uploaded file's, for messages.
    init(copy url: URL, name: String) throws {
        fileName = name
        do {
            queue = try DatabaseQueue(path: url.path, configuration: UntrustedStore.configuration(readonly: true))
            (tables, identity) = try queue.read { db in
                let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
                let identity = tables.contains("Z_METADATA")
                    ? try DatabaseValue.fetchOne(db, sql: "SELECT Z_UUID FROM Z_METADATA LIMIT 1").flatMap(String.fromDatabaseValue) : nil
                return (tables, identity ?? "store")
            }
        } catch let error as DatabaseError {
            throw ImportFailure(
                "\(fileName): the database cannot be read (\(error.message ?? "\(error.resultCode)"))",
                korean: "\(fileName): 데이터베이스를 읽을 수 없습니다 (\(error.message ?? "\(error.resultCode)"))")
        }
        for required in ["ZCHILDDATA", "ZDIARYDATA"] where !tables.contains(required) {
            throw ImportFailure(
                "\(fileName): not an iPhotoDiary store: it has no \(required) table (tables: \(tables.sorted().joined(separator: ", ")))",
                korean: "\(fileName): 아이포토다이어리 파일이 아닙니다: \(required) 표가 없습니다")
        }
    }

    /// Every row of a table in `Z_PK` order (an absent table has none). `without` leaves big blobs out. The copy holds
    /// only the columns the importer reads (`UntrustedStore.columns`).
    func records(_ table: String, without: [String] = []) throws -> [Record] {
        guard tables.contains(table) else { return [] }
        return try read { db in
            let columns = try db.columns(in: table).map(\.name).filter { UntrustedStore.columns.contains($0) && !without.contains($0) }
            let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            return try Row.fetchAll(db, sql: "SELECT \(list) FROM \"\(table)\" ORDER BY Z_PK").map { Record(table: table, row: $0) }
        }
    }

    /// One column of one row (a photo's bytes, read only when wanted).
    func blob(_ table: String, column: String, pk: Int64) throws -> Data? {
        guard tables.contains(table) else { return nil }
        return try read { db in
            guard try db.columns(in: table).contains(where: { $0.name == column }) else { return nil }
            return try Data.fetchOne(db, sql: "SELECT \"\(column)\" FROM \"\(table)\" WHERE Z_PK = ?", arguments: [pk])
        }
    }

    private func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try queue.read(body)
        } catch let error as DatabaseError {
            throw ImportFailure(
                "\(fileName): the database is damaged (\(error.message ?? "\(error.resultCode)"))",
                korean: "\(fileName): 데이터베이스가 손상되었습니다 (\(error.message ?? "\(error.resultCode)"))")
        }
    }

    /// Korean local time: every date in the store was picked on a phone in Korea.
    static let seoul = TimeZone(identifier: "Asia/Seoul")!
}

/// One row, read by column name.
struct Record {
    let table: String
    let row: Row

    var pk: Int64 { int("Z_PK") ?? 0 }
    /// "ZDIARYDATA Z_PK=12": where a message points.
    var place: String { "\(table) Z_PK=\(pk)" }

    private func value(_ column: String) -> DatabaseValue? {
        guard row.hasColumn(column) else { return nil }
        let value: DatabaseValue = row[column]
        return value.isNull ? nil : value
    }

    /// Text, trimmed; nil when absent or blank.
    func string(_ column: String) -> String? {
        let text: String? = switch value(column)?.storage {
        case .string(let text): text
        case .int64(let number): String(number)
        case .double(let number): String(number)
        case .blob(let data): String(data: data, encoding: .utf8)
        case .null, nil: nil
        }
        let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed?.isEmpty == false ? trimmed : nil
    }

    func double(_ column: String) -> Double? {
        switch value(column)?.storage {
        case .double(let number): number.isFinite ? number : nil
        case .int64(let number): Double(number)
        case .string(let text): Double(text.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? $0 : nil }
        default: nil
        }
    }

    func int(_ column: String) -> Int64? {
        switch value(column)?.storage {
        case .int64(let number): number
        case .double(let number): number.isFinite && abs(number) < 9e15 ? Int64(number) : nil
        case .string(let text): Int64(text.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }

    /// A Core Data date: seconds since 2001-01-01 UTC.
    func date(_ column: String) -> Date? {
        double(column).map { Date(timeIntervalSinceReferenceDate: $0) }
    }

    /// A date as Korean local date and time; nil when absent, an error when outside any sensible range.
    func localDate(_ column: String) throws -> (date: SolarDate, time: ClockTime)? {
        guard let date = date(column) else { return nil }
        let parts = Calendar(identifier: .gregorian).dateComponents(in: CoreDataStore.seoul, from: date)
        guard let year = parts.year, (1900...2100).contains(year), let month = parts.month, let day = parts.day,
            let solar = try? SolarDate(year: year, month: month, day: day),
            let time = try? ClockTime(hour: parts.hour ?? 0, minute: parts.minute ?? 0)
        else {
            throw ImportFailure(
                "\(place), \(column): \(double(column) ?? 0) is not a date between 1900 and 2100",
                korean: "\(place), \(column): \(double(column) ?? 0)은(는) 1900년에서 2100년 사이의 날짜가 아닙니다")
        }
        return (solar, time)
    }

    func blob(_ column: String) -> Data? {
        if case .blob(let data) = value(column)?.storage, !data.isEmpty { return data }
        return nil
    }
}

/// "2010. 8. 15." (the app's `conditionDate`, `birthdaySolar`, `birthdayLunar`) → year, month, day.
func yearMonthDay(_ text: String?) -> (year: Int, month: Int, day: Int)? {
    guard let text else { return nil }
    let numbers = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    guard numbers.count == 3, numbers[0] > 1000 else { return nil }
    return (numbers[0], numbers[1], numbers[2])
}
