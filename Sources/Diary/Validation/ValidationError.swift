/// Input that breaks a rule of the domain. `field` names the offending field as the user sent it
/// (a JSON key, a form field, a CLI option), so every interface can point at it.
public struct ValidationError: Error, Equatable, Sendable, CustomStringConvertible {
    public let field: String
    public let message: String

    public init(field: String, _ message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { "\(field): \(message)" }
}

/// Small checks shared by every kind of record.
public enum Validate {
    /// Trims surrounding white space and requires 1…`maxLength` characters.
    /// No NUL: SQLite's text functions stop at one, so its checks would see `"\u{0}x"` as empty and refuse the row
    /// with a 500 (found by schemathesis, issue 18).
    public static func requiredText(_ text: String, field: String, maxLength: Int) throws(ValidationError) -> String {
        guard !text.unicodeScalars.contains("\u{0}") else { throw ValidationError(field: field, "must not contain the NUL character") }
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw ValidationError(field: field, "must not be empty") }
        guard trimmed.count <= maxLength else {
            throw ValidationError(field: field, "must be at most \(maxLength) characters (got \(trimmed.count))")
        }
        return trimmed
    }

    /// Like `requiredText`, but empty or missing text becomes nil.
    public static func optionalText(_ text: String?, field: String, maxLength: Int) throws(ValidationError) -> String? {
        guard let text, !text.trimmingWhitespace().isEmpty else { return nil }
        return try requiredText(text, field: field, maxLength: maxLength)
    }

    /// Parses a field's text, turning any error (a `CalendarError`, say) into one that names the field.
    public static func field<T>(_ name: String, _ parse: () throws -> T) throws(ValidationError) -> T {
        do { return try parse() } catch let error as ValidationError { throw error } catch {
            throw ValidationError(field: name, "\(error)")
        }
    }

    /// Body text keeps its inner and trailing white space (it is the author's), only bounded in length.
    public static func body(_ text: String, field: String, maxLength: Int) throws(ValidationError) -> String {
        guard text.count <= maxLength else {
            throw ValidationError(field: field, "must be at most \(maxLength) characters (got \(text.count))")
        }
        return text
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[start...end])
    }
}
