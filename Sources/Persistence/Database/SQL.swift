import Diary
import Foundation

/// A value as the stores write and read it, whichever engine holds it: SQLite's five storage classes, and booleans
/// (SQLite keeps them as 0 and 1, PostgreSQL as `boolean`).
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    case bool(Bool)
}

/// What may be bound into a statement.
public protocol SQLBindable {
    var sqlValue: SQLValue { get }
}

extension SQLValue: SQLBindable {
    public var sqlValue: SQLValue { self }
}

extension String: SQLBindable {
    public var sqlValue: SQLValue { .text(self) }
}

extension Substring: SQLBindable {
    public var sqlValue: SQLValue { .text(String(self)) }
}

extension Int: SQLBindable {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Int64: SQLBindable {
    public var sqlValue: SQLValue { .integer(self) }
}

extension Double: SQLBindable {
    public var sqlValue: SQLValue { .real(self) }
}

extension Bool: SQLBindable {
    public var sqlValue: SQLValue { .bool(self) }
}

extension Data: SQLBindable {
    public var sqlValue: SQLValue { .blob(self) }
}

/// A time binds as the text both engines store (`StoredTime`).
extension Date: SQLBindable {
    public var sqlValue: SQLValue { .text(stored) }
}

/// An ID binds as the lowercase text the rows store.
extension Identifier: SQLBindable {
    public var sqlValue: SQLValue { .text(description) }
}

extension Optional: SQLBindable where Wrapped: SQLBindable {
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

/// A statement with its values, written once for both engines by interpolation: `"… WHERE id = \(id)"` binds `id`
/// (never pastes it into the text), `\(raw: name)` pastes trusted text such as a table name, `\(list: ids)` binds a
/// parenthesised list for `IN`, and another `SQL` interpolates with its own values. Each engine renders its
/// placeholders (`?` or `$1`), so no statement carries positional `?` whose meaning lives in a comment.
public struct SQL: Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    enum Part: Sendable {
        case text(String)
        case value(SQLValue)
    }

    var parts: [Part]

    public init(stringLiteral value: String) { parts = [.text(value)] }

    public init(stringInterpolation: Interpolation) { parts = stringInterpolation.parts }

    /// Trusted text, as it is.
    public init(raw text: String) { parts = [.text(text)] }

    public struct Interpolation: StringInterpolationProtocol {
        var parts: [Part] = []

        public init(literalCapacity: Int, interpolationCount: Int) { parts.reserveCapacity(interpolationCount * 2 + 1) }

        public mutating func appendLiteral(_ literal: String) { parts.append(.text(literal)) }

        public mutating func appendInterpolation(_ value: some SQLBindable) { parts.append(.value(value.sqlValue)) }

        /// An optional value binds as NULL when it is nil (said here, so the compiler does not take it for a debug
        /// description pasted into text).
        public mutating func appendInterpolation<Value: SQLBindable>(_ value: Value?) { parts.append(.value(value.sqlValue)) }

        public mutating func appendInterpolation(raw text: String) { parts.append(.text(text)) }

        public mutating func appendInterpolation(_ sql: SQL) { parts += sql.parts }

        /// `(v1, v2, …)`; `(NULL)` for none, which matches nothing (PostgreSQL refuses an empty `IN ()`).
        public mutating func appendInterpolation(list values: [some SQLBindable]) {
            guard !values.isEmpty else { return parts.append(.text("(NULL)")) }
            parts.append(.text("("))
            for (index, value) in values.enumerated() {
                if index > 0 { parts.append(.text(", ")) }
                parts.append(.value(value.sqlValue))
            }
            parts.append(.text(")"))
        }
    }

    public static func + (left: SQL, right: SQL) -> SQL {
        var joined = left
        joined.parts += right.parts
        return joined
    }

    public static func += (left: inout SQL, right: SQL) { left.parts += right.parts }

    /// Several fragments with `separator` between them.
    public static func joined(_ fragments: [SQL], separator: String) -> SQL {
        var result = SQL(raw: "")
        for (index, fragment) in fragments.enumerated() {
            if index > 0 { result.parts.append(.text(separator)) }
            result.parts += fragment.parts
        }
        return result
    }

    /// The text with each value's placeholder (the number counts from 1), and the values in order.
    public func rendered(placeholder: (Int) -> String) -> (text: String, values: [SQLValue]) {
        var text = ""
        var values: [SQLValue] = []
        for part in parts {
            switch part {
            case .text(let piece): text += piece
            case .value(let value):
                values.append(value)
                text += placeholder(values.count)
            }
        }
        return (text, values)
    }

    /// The text with `?` placeholders, for logs and errors (no values).
    public var description: String { rendered { _ in "?" }.text }
}

/// A row read back: its columns in order, found by name without regard to case (PostgreSQL folds unquoted names to
/// lower case: `familyId` is `familyid`) or by position. Every accessor throws `StoreError.unreadable` for a column
/// that is missing or holds another kind of value: a stored row is never trusted to a force unwrap.
public struct SQLRow: Sendable {
    public let columns: SQLColumns
    public let values: [SQLValue]

    public init(columns: SQLColumns, values: [SQLValue]) {
        self.columns = columns
        self.values = values
    }

    public var names: [String] { columns.names }

    public func value(_ column: String) throws -> SQLValue {
        guard let index = columns.position(column), values.indices.contains(index) else { throw StoreError.unreadable("no column \(column)") }
        return values[index]
    }

    public func value(at index: Int) throws -> SQLValue {
        guard values.indices.contains(index) else { throw StoreError.unreadable("no column \(index)") }
        return values[index]
    }

    public func has(_ column: String) -> Bool { columns.position(column) != nil }

    private func wrong(_ column: String, _ kind: String) -> StoreError { .unreadable("\(column): not \(kind)") }

    public func optionalString(_ column: String) throws -> String? {
        switch try value(column) {
        case .null: return nil
        case .text(let text): return text
        default: throw wrong(column, "text")
        }
    }

    public func string(_ column: String) throws -> String {
        guard let text = try optionalString(column) else { throw wrong(column, "text") }
        return text
    }

    public func optionalInt64(_ column: String) throws -> Int64? {
        switch try value(column) {
        case .null: return nil
        case .integer(let number): return number
        case .bool(let flag): return flag ? 1 : 0
        default: throw wrong(column, "an integer")
        }
    }

    public func optionalInt(_ column: String) throws -> Int? {
        guard let number = try optionalInt64(column) else { return nil }
        guard let fitting = Int(exactly: number) else { throw wrong(column, "an integer in range") }
        return fitting
    }

    public func int(_ column: String) throws -> Int {
        guard let number = try optionalInt(column) else { throw wrong(column, "an integer") }
        return number
    }

    public func int64(_ column: String) throws -> Int64 {
        guard let number = try optionalInt64(column) else { throw wrong(column, "an integer") }
        return number
    }

    public func optionalDouble(_ column: String) throws -> Double? {
        switch try value(column) {
        case .null: return nil
        case .real(let number): return number
        case .integer(let number): return Double(number)
        default: throw wrong(column, "a number")
        }
    }

    public func double(_ column: String) throws -> Double {
        guard let number = try optionalDouble(column) else { throw wrong(column, "a number") }
        return number
    }

    /// `boolean` on PostgreSQL, 0 or 1 on SQLite.
    public func optionalBool(_ column: String) throws -> Bool? {
        switch try value(column) {
        case .null: return nil
        case .bool(let flag): return flag
        case .integer(let number): return number != 0
        default: throw wrong(column, "a boolean")
        }
    }

    public func bool(_ column: String) throws -> Bool {
        guard let flag = try optionalBool(column) else { throw wrong(column, "a boolean") }
        return flag
    }

    public func optionalData(_ column: String) throws -> Data? {
        switch try value(column) {
        case .null: return nil
        case .blob(let data): return data
        default: throw wrong(column, "bytes")
        }
    }

    public func data(_ column: String) throws -> Data {
        guard let data = try optionalData(column) else { throw wrong(column, "bytes") }
        return data
    }

    public func id<Owner>(_ column: String) throws -> Identifier<Owner> {
        let text = try string(column)
        guard let id = Identifier<Owner>(text) else { throw StoreError.unreadable("\(column) '\(text)' is not a UUID") }
        return id
    }

    public func optionalID<Owner>(_ column: String) throws -> Identifier<Owner>? {
        guard let text = try optionalString(column) else { return nil }
        guard let id = Identifier<Owner>(text) else { throw StoreError.unreadable("\(column) '\(text)' is not a UUID") }
        return id
    }

    public func timestamp(_ column: String) throws -> Date {
        let text = try string(column)
        guard let date = StoredTime.date(text) else { throw StoreError.unreadable("\(column) '\(text)' is not a timestamp") }
        return date
    }

    public func optionalTimestamp(_ column: String) throws -> Date? {
        try optionalString(column) == nil ? nil : try timestamp(column)
    }
}

/// The column names of one result, shared by its rows, found without regard to case.
public final class SQLColumns: Sendable {
    public let names: [String]

    public init(_ names: [String]) { self.names = names }

    /// As written first, then folded (PostgreSQL's names are lower case). A row has a dozen columns or so, nearly all
    /// names fit in a small string, and the first pass nearly always finds it: a scan, not a dictionary made for every
    /// statement (hashing the names was 1–2 % of a busy timeline).
    public func position(_ column: String) -> Int? {
        if let index = names.firstIndex(of: column) { return index }
        let folded = column.lowercased()
        return names.firstIndex(of: folded) ?? names.firstIndex { $0.lowercased() == folded }
    }
}
