import Foundation

/// Names that pass for other names (issue 33): `mom` followed by U+3164, an invisible Hangul filler, and `mоm` with a
/// Cyrillic `о` were both accepted beside `mom`. What Unicode's security mechanisms (UTS #39) say to do, on the data
/// Unicode publishes (generated: LookAlikes+Confusables.swift, LookAlikes+Scripts.swift):
/// - a name a person reads holds nothing invisible (`invisible(in:)`);
/// - a username is written in one script, or in a combination people write (`isSingleScript`, UTS #39's "highly
///   restrictive" level: Latin with Han and Hangul, with Han and kana, with Han and Bopomofo);
/// - a username whose skeleton (`skeleton`) is another's is refused: the two would look the same.
public enum LookAlikes {
    /// UTS #39's skeleton: canonical decomposition, each character replaced by the prototype it is confusable with,
    /// decomposition again. Two strings with one skeleton look alike.
    public static func skeleton(_ text: String) -> String {
        var mapped = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
            if let prototype = prototypes[scalar.value] { mapped.append(contentsOf: prototype) } else { mapped.append(scalar) }
        }
        return String(mapped).decomposedStringWithCanonicalMapping
    }

    /// Whether `name` looks like one of `others` without being it (the same name in other letter case is the same
    /// name: the database refuses that itself).
    public static func looksLikeAnother(_ name: String, among others: [String]) -> Bool {
        let lowered = name.lowercased()
        let mine = caselessSkeleton(name)
        return others.contains { other in other.lowercased() != lowered && caselessSkeleton(other) == mine }
    }

    /// The skeleton of a name compared without regard to case or width: compatibility-composed and lowercased
    /// first (`ｍｏｍ`, `ℌ`), lowercased again after (a prototype may be a capital).
    static func caselessSkeleton(_ name: String) -> String {
        skeleton(name.precomposedStringWithCompatibilityMapping.lowercased()).lowercased()
    }

    /// The script of a code point, as Scripts.txt names it (`Latin`, `Hangul`, `Common`, …; `Unknown` if none).
    public static func script(of scalar: Unicode.Scalar) -> String {
        let value = scalar.value
        var low = 0, high = scripts.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = scripts[middle]
            if value < range.first { high = middle - 1 } else if value > range.last { low = middle + 1 } else { return range.name }
        }
        return "Unknown"
    }

    /// The combinations of scripts a name may use besides a single one (UTS #39 §5.2, "highly restrictive").
    static let allowedMixtures: [Set<String>] = [
        ["Latin", "Han", "Hiragana", "Katakana"], ["Latin", "Han", "Hangul"], ["Latin", "Han", "Bopomofo"],
    ]

    /// Whether the text's letters come from one script or an allowed combination (digits, punctuation and marks,
    /// Common and Inherited, go with any).
    public static func isSingleScript(_ text: String) -> Bool {
        let used = Set(text.unicodeScalars.map(script(of:))).subtracting(["Common", "Inherited"])
        return used.count <= 1 || allowedMixtures.contains { used.isSubset(of: $0) }
    }

    /// Blank characters that are not marked as ignorable but show nothing where they stand.
    static let blanks: Set<Unicode.Scalar> = ["\u{2800}", "\u{3164}", "\u{115F}", "\u{1160}", "\u{FFA0}", "\u{180E}"]

    /// The first character of a name that a reader would not see, or that changes how the rest is shown: controls,
    /// format characters (bidirectional overrides, zero-width spaces and joiners), default-ignorable code points,
    /// private-use, unassigned and surrogate code points, line separators, and the blanks above. An emoji sequence
    /// keeps its joiner (👨‍👩‍👧) and its variation selector (❤️, 1️⃣).
    public static func invisible(in text: String) -> Unicode.Scalar? {
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() where isHidden(scalar) {
            let before = index > 0 ? scalars[index - 1] : nil
            let after = index + 1 < scalars.count ? scalars[index + 1] : nil
            if scalar == "\u{200D}", let before, let after, isPictograph(after),
                isPictograph(before) || before == "\u{FE0F}"
            {
                continue
            }
            if scalar == "\u{FE0F}" || scalar == "\u{FE0E}", before?.properties.isEmoji == true { continue }
            return scalar
        }
        return nil
    }

    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator: true
        default: scalar.properties.isDefaultIgnorableCodePoint || blanks.contains(scalar)
        }
    }

    static func isPictograph(_ scalar: Unicode.Scalar) -> Bool { scalar.value > 0x7F && scalar.properties.isEmoji }

    /// confusables.txt as a table: code point → its prototype's scalars.
    static let prototypes: [UInt32: [Unicode.Scalar]] = {
        var table: [UInt32: [Unicode.Scalar]] = [:]
        for entry in confusableData.split(whereSeparator: { $0 == ";" || $0 == "\n" }) {
            let numbers = entry.split(separator: " ").compactMap { UInt32($0, radix: 16) }
            guard numbers.count >= 2 else { continue }
            table[numbers[0]] = numbers.dropFirst().compactMap(Unicode.Scalar.init)
        }
        return table
    }()

    /// Scripts.txt as sorted ranges.
    static let scripts: [(first: UInt32, last: UInt32, name: String)] = ranges(scriptData)

    private static func ranges(_ data: String) -> [(first: UInt32, last: UInt32, name: String)] {
        data.split(whereSeparator: { $0 == ";" || $0 == "\n" }).compactMap { entry in
            let parts = entry.split(separator: " ")
            guard parts.count == 3, let first = UInt32(parts[0], radix: 16), let last = UInt32(parts[1], radix: 16) else { return nil }
            return (first, last, String(parts[2]))
        }
    }
}
