import Diary
import Foundation

/// The JSON Google Photos Takeout writes beside each photo (`IMG_0001.JPG.json`, since 2024
/// `IMG_0001.JPG.supplemental-metadata.json`), and the `metadata.json` of an album's folder. What Saessak takes of a
/// photo's: `photoTakenTime.timestamp` (seconds since 1970 as a string, UTC: Takeout keeps no time zone),
/// `description`, and `geoData` (or `geoDataExif`; 0, 0 means none). Of an album's: its `title`. The rest (views,
/// people, URLs) is left. The format is documented where the tests build takeouts of their own
/// (`blackbox/takeout.py`).
public struct TakeoutSidecar: Equatable, Sendable {
    public let title: String?
    public let description: String?
    public let taken: Date?
    public let latitude: Double?
    public let longitude: Double?

    /// A sidecar is read whole: at most this much of it (a real one is under 2 KB).
    public static let maxBytes = 256 << 10

    /// The sidecar in `data`, or nil when it is no JSON object of this shape (an album's `print-subscriptions.json`,
    /// a broken file). Values out of their range are dropped, never trusted: a time before 1900 or after 2200, a
    /// latitude past ±90.
    public static func read(_ data: Data) -> TakeoutSidecar? {
        guard data.count <= maxBytes, let json = try? JSONDecoder().decode(Shape.self, from: data) else { return nil }
        let place = [json.geoData, json.geoDataExif].compactMap { $0 }.first { $0.isPlace }
        return TakeoutSidecar(
            title: json.title.flatMap(clean), description: json.description.flatMap(clean),
            taken: json.photoTakenTime?.timestamp.flatMap(seconds).map { Date(timeIntervalSince1970: TimeInterval($0)) },
            latitude: place?.latitude, longitude: place?.longitude)
    }

    /// A description or title is at most this many scalars (longer ones are cut).
    static let maxTextLength = 2_000

    /// Text without control characters (but line breaks), trimmed, cut at `maxTextLength` scalars; nil when nothing
    /// is left or what is left is no text an entry takes (a pile of combining marks).
    static func clean(_ text: String) -> String? {
        let kept = text.unicodeScalars.filter { $0 == "\n" || $0.properties.generalCategory != .control }
        let trimmed = String(String.UnicodeScalarView(kept)).trimmingCharacters(in: .whitespacesAndNewlines)
        let cut = String(String.UnicodeScalarView(trimmed.unicodeScalars.prefix(maxTextLength)))
        guard !cut.isEmpty, (try? Validate.body(cut, field: "description", maxLength: maxTextLength)) != nil else { return nil }
        return cut
    }

    /// A timestamp's text as seconds: ASCII digits only (an optional minus), from 1900 to 2200.
    static func seconds(_ text: String) -> Int64? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.count <= 12, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let value = Int64(text), (-2_208_988_800...7_258_118_400).contains(value)
        else { return nil }
        return value
    }

    /// The JSON as Takeout writes it; every field may be missing.
    private struct Shape: Decodable {
        let title: String?
        let description: String?
        let photoTakenTime: Time?
        let geoData: Geo?
        let geoDataExif: Geo?

        struct Time: Decodable {
            let timestamp: String?
        }

        struct Geo: Decodable {
            let latitude: Double?
            let longitude: Double?

            /// A real position: both given, finite, in range, and not Takeout's 0, 0 for "none".
            var isPlace: Bool {
                guard let latitude, let longitude, latitude.isFinite, longitude.isFinite else { return false }
                return abs(latitude) <= 90 && abs(longitude) <= 180 && !(latitude == 0 && longitude == 0)
            }
        }
    }
}

/// How Takeout names the files of a folder: which sidecar is a photo's, which photo is an edited copy of another, and
/// which clip is the moving half of a Live Photo.
public enum TakeoutNames {
    /// What a sidecar's file name says of the photo it describes: the photo's name — cut short when the sidecar's
    /// whole name would pass Takeout's limit — and the number of a copy of the same name (`IMG.JPG(1).json` is
    /// `IMG(1).JPG`'s). Nil for a name that is not `….json`.
    public static func described(bySidecar name: String) -> (stem: String, copy: Int?)? {
        guard name.lowercased().hasSuffix(".json"), name.count > 5 else { return nil }
        var stem = String(name.dropLast(5))
        let (bare, copy) = copyNumber(stem)
        stem = bare
        // `.supplemental-metadata`, or what is left of it when the name was cut short (`.supplemental-me`, `.s`).
        if let dot = stem.lastIndex(of: "."), dot != stem.startIndex {
            let segment = stem[stem.index(after: dot)...]
            if !segment.isEmpty, "supplemental-metadata".hasPrefix(segment) { stem = String(stem[..<dot]) }
        }
        return stem.isEmpty ? nil : (stem, copy)
    }

    /// Takeout cuts a sidecar's name at about 46 to 51 characters; a name this long may be cut short.
    static let cutAt = 46

    /// `IMG(1).JPG` → (`IMG.JPG`, 1), `IMG.JPG(1)` → (`IMG.JPG`, 1), `IMG.JPG` → (`IMG.JPG`, nil).
    public static func copyNumber(_ name: String) -> (name: String, copy: Int?) {
        let (stem, ext) = split(name)
        if let (base, number) = trailingNumber(stem) { return (base + ext, number) }
        if ext.isEmpty, let (base, number) = trailingNumber(name) { return (base, number) }
        if let (base, number) = trailingNumber(ext) { return (stem + base, number) }
        return (name, nil)
    }

    /// Whether the sidecar (`stem`, `copy`, its whole name `sidecar`) is the one of the photo `name`.
    public static func matches(stem: String, copy: Int?, sidecar: String, photo name: String) -> Bool {
        let (base, number) = copyNumber(name)
        guard number == copy else { return false }
        if base == stem { return true }
        // Compared by scalar: a name may be cut inside a character (an emoji and its variation selector).
        return sidecar.count >= cutAt && base.unicodeScalars.count > stem.unicodeScalars.count
            && base.unicodeScalars.starts(with: stem.unicodeScalars)
    }

    /// The endings Google Photos gives an edited copy, in the languages Takeouts are most often made in.
    static let editedEndings = ["-edited", "-편집됨", "-bearbeitet", "-modifié", "-editado", "-modificato", "-bewerkt"]

    /// The original's name when `name` is an edited copy's (`IMG_0004-edited.JPG` → `IMG_0004.JPG`).
    public static func original(ofEdited name: String) -> String? {
        let (stem, ext) = split(name)
        for ending in editedEndings where stem.lowercased().hasSuffix(ending) && stem.count > ending.count {
            return String(stem.dropLast(ending.count)) + ext
        }
        return nil
    }

    /// The name without its extension, lower-cased: a Live Photo's still and clip share it (`IMG_0005.HEIC`, `IMG_0005.MP4`).
    public static func liveKey(_ name: String) -> String { split(name).stem.lowercased() }

    /// `name` as its stem and its extension with the dot (`.JPG`; empty when there is none).
    static func split(_ name: String) -> (stem: String, ext: String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[dot...]))
    }

    /// `text(12)` → (`text`, 12) when it ends with a number in parentheses (at most 4 digits).
    static func trailingNumber(_ text: String) -> (String, Int)? {
        guard text.hasSuffix(")"), let open = text.lastIndex(of: "(") else { return nil }
        let digits = text[text.index(after: open)..<text.index(before: text.endIndex)]
        guard (1...4).contains(digits.count), digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let number = Int(digits)
        else { return nil }
        return (String(text[..<open]), number)
    }
}
