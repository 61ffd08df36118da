import KoreanCalendar

/// Input that breaks a rule of the domain. `field` names the offending field as the user sent it
/// (a JSON key, a form field, a CLI option), so every interface can point at it; `message` says what is wrong in
/// English (the API's and the CLI's words). `rule`, when there is one, is the same in a form the web app can put in
/// Korean: the rules a person filling in a form can break.
public struct ValidationError: Error, Equatable, Sendable, CustomStringConvertible {
    public let field: String
    public let message: String
    public let rule: Rule?

    /// The rules a form can break, each with its English message.
    public enum Rule: Equatable, Sendable {
        case empty
        case tooLong(maximum: Int, got: Int)
        case containsNUL
        /// More combining marks on one character than any script needs (Unicode's stream-safe limit, UAX #15).
        case tooManyMarks(maximum: Int)
        /// A character no reader sees (or that turns the rest around) in a name people read: U+3164, U+202E, …
        case invisible(UInt32)
        /// A username in letters of several alphabets (`mоm` with a Cyrillic о).
        case mixedScripts
        /// A username that looks like one already taken (UTS #39 skeletons).
        case lookAlike
        case notANumber
        case notPositive
        case noChild
        case residentNumberForm
        /// A password too short or too long, in the English words of the rule that refused it.
        case passwordLength(String)
        case notCurrentPassword
        case latitudeRange(Double)
        case longitudeRange(Double)
        case halfAPosition
        case tooManyTags(maximum: Int, got: Int)
        case notATag(String, maximum: Int)
        /// A measurement no child has (a slip of the keyboard): at most `maximum` of `unit`.
        case implausible(value: Double, unit: String, kind: String, maximum: Int)
        case monthRange(got: Int)
        /// The day of a month of an anniversary: at most `maximum` (31, 30 or 29 solar; 30 lunar).
        case dayRange(maximum: Int, lunar: Bool, month: Int, got: Int)
        /// A date the calendar does not have (day 31 of a 30-day month, a leap month that year lacks, a year outside
        /// the tables).
        case calendar(CalendarError)

        var message: String {
            switch self {
            case .empty: "must not be empty"
            case .tooLong(let maximum, let got): "must be at most \(maximum) characters (got \(got))"
            case .containsNUL: "must not contain the NUL character"
            case .tooManyMarks(let maximum): "must not stack more than \(maximum) combining marks on one character"
            case .invisible(let value): "must not contain an invisible or formatting character (\(codePoint(value)))"
            case .mixedScripts: "must be written in one alphabet (letters from several look like others)"
            case .lookAlike: "looks like a username already taken; choose another"
            case .notANumber: "is not a number"
            case .notPositive: "must be a positive number"
            case .noChild: "must name at least one child"
            case .residentNumberForm: "must be 13 digits as YYMMDD-NNNNNNN"
            case .passwordLength(let problem): problem
            case .notCurrentPassword: "is not the current password"
            case .latitudeRange(let latitude): "must be between -90 and 90 (got \(latitude))"
            case .longitudeRange(let longitude): "must be between -180 and 180 (got \(longitude))"
            case .halfAPosition: "latitude and longitude go together"
            case .tooManyTags(let maximum, let got): "at most \(maximum) tags (got \(got))"
            case .notATag(let text, let maximum): "'\(text)' is not a tag (1–\(maximum) characters, no commas)"
            case .implausible(let value, let unit, let kind, let maximum): "\(value) \(unit) is not a child's \(kind); at most \(maximum) \(unit)"
            case .monthRange(let got): "must be 1–12 (got \(got))"
            case .dayRange(let maximum, let lunar, let month, let got):
                "must be 1–\(maximum) for \(lunar ? "lunar" : "solar") month \(month) (got \(got))"
            case .calendar(let error): "\(error)"
            }
        }
    }

    /// `U+3164`.
    static func codePoint(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    public init(field: String, _ message: String) {
        self.field = field
        self.message = message
        self.rule = nil
    }

    public init(field: String, _ rule: Rule) {
        self.field = field
        self.message = rule.message
        self.rule = rule
    }

    public var description: String { "\(field): \(message)" }

    /// The same mistake: the same field and words (a rule only says them in a form other languages can take).
    public static func == (left: ValidationError, right: ValidationError) -> Bool {
        left.field == right.field && left.message == right.message
    }
}

/// Small checks shared by every kind of record. Every text a person or a file gives us passes `text` (directly or
/// through `requiredText`, `optionalText`, `body`): one place decides what a text may hold and how long it may be.
public enum Validate {
    /// Combining marks one character may carry: Unicode's stream-safe text format allows 30 non-starters in a row
    /// (UAX #15); no script's writing needs more, and `a` with 150,000 accents drew a 600 KB share page (issue 33).
    public static let maxMarksInARow = 30

    /// Set while rows read back from the database are made into values (`readingStored`): they were checked when
    /// written, under the rules of their day, and a rule made stricter since (limits in scalars, names without
    /// invisible characters) must not make a diary already kept unreadable.
    @TaskLocal public static var isReadingStoredRows = false

    /// Runs `body` with the checks of stored rows (`isReadingStoredRows`).
    public static func readingStored<T>(_ body: () throws -> T) rethrows -> T {
        try $isReadingStoredRows.withValue(true) { try body() }
    }

    /// The one check of every text, kept as it is: no NUL (SQLite's text functions stop at one and PostgreSQL refuses
    /// it: an entry's body was stored cut there while the answer showed it whole, issue 33), at most `maxLength`
    /// Unicode scalars — not grapheme clusters, which a combining mark joins without end — and no pile of marks.
    public static func text(_ text: String, field: String, maxLength: Int) throws(ValidationError) -> String {
        if isReadingStoredRows { return text }
        var count = 0, marks = 0
        for scalar in text.unicodeScalars {
            if scalar == "\u{0}" { throw ValidationError(field: field, .containsNUL) }
            count += 1
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark:
                marks += 1
                if marks > maxMarksInARow { throw ValidationError(field: field, .tooManyMarks(maximum: maxMarksInARow)) }
            default:
                marks = 0
            }
        }
        guard count <= maxLength else { throw ValidationError(field: field, .tooLong(maximum: maxLength, got: count)) }
        return text
    }

    /// Trims surrounding white space and requires 1…`maxLength` scalars (`text`).
    public static func requiredText(_ text: String, field: String, maxLength: Int) throws(ValidationError) -> String {
        guard !text.unicodeScalars.contains("\u{0}") else { throw ValidationError(field: field, .containsNUL) }
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw ValidationError(field: field, .empty) }
        return try Self.text(trimmed, field: field, maxLength: maxLength)
    }

    /// A name a person reads (a family's, a child's, a share link's or feed's label, a token's): `requiredText`, and
    /// nothing in it the reader would not see (`LookAlikes.invisible`).
    public static func name(_ text: String, field: String, maxLength: Int) throws(ValidationError) -> String {
        let name = try requiredText(text, field: field, maxLength: maxLength)
        if !isReadingStoredRows, let hidden = LookAlikes.invisible(in: name) { throw ValidationError(field: field, .invisible(hidden.value)) }
        return name
    }

    /// Like `name`, but empty or missing text becomes nil.
    public static func optionalName(_ text: String?, field: String, maxLength: Int) throws(ValidationError) -> String? {
        guard let text, !text.trimmingWhitespace().isEmpty else { return nil }
        return try name(text, field: field, maxLength: maxLength)
    }

    /// The longest start of `text` made of whole characters and at most `maxScalars` Unicode scalars: where an
    /// importer cuts a title to fit (limits count scalars; an emoji family is seven, a syllable in NFD two or three).
    public static func prefix(_ text: some StringProtocol, scalars maxScalars: Int) -> String {
        var count = 0
        var end = text.startIndex
        for index in text.indices {
            count += text[index].unicodeScalars.count
            guard count <= maxScalars else { break }
            end = text.index(after: index)
        }
        return String(text[..<end])
    }

    /// Like `requiredText`, but empty or missing text becomes nil.
    public static func optionalText(_ text: String?, field: String, maxLength: Int) throws(ValidationError) -> String? {
        guard let text, !text.trimmingWhitespace().isEmpty else { return nil }
        return try requiredText(text, field: field, maxLength: maxLength)
    }

    /// Parses a field's text, turning any error (a `CalendarError`, say) into one that names the field.
    public static func field<T>(_ name: String, _ parse: () throws -> T) throws(ValidationError) -> T {
        do { return try parse() } catch let error as ValidationError { throw error } catch let error as CalendarError {
            throw ValidationError(field: name, .calendar(error))
        } catch {
            throw ValidationError(field: name, "\(error)")
        }
    }

    /// Body text keeps its inner and surrounding white space (it is the author's), checked as every text is.
    public static func body(_ text: String, field: String, maxLength: Int) throws(ValidationError) -> String {
        try Self.text(text, field: field, maxLength: maxLength)
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.isUnicodeWhitespace }), let end = scalars.lastIndex(where: { !$0.isUnicodeWhitespace })
        else { return "" }
        // Nearly always there is nothing to trim: the same string, not a copy.
        if start == scalars.startIndex && scalars.index(after: end) == scalars.endIndex { return self }
        return String(scalars[start...end])
    }
}

extension Unicode.Scalar {
    /// Unicode's White_Space: printable ASCII and everything after U+3000 (the last white space scalar) answered
    /// without Unicode's property tables, which every entry's title and tags read on their way out of the database
    /// (1 % of a busy timeline).
    var isUnicodeWhitespace: Bool {
        switch value {
        case 0x21...0x7E, 0x3001...: false
        default: properties.isWhitespace
        }
    }
}
