import Foundation
import Places
import KoreanCalendar

/// A diary entry: what happened, when (local wall-clock time in a named time zone) and to which children.
public struct Entry: Hashable, Sendable {
    public let id: EntryID
    public let familyID: FamilyID
    public var content: EntryContent
    /// The entry's photos in order.
    public var photoIDs: [PhotoID]
    public let createdAt: Date
    public var modifiedAt: Date
    /// Who wrote it (nil for entries imported or written before authors were kept, or by an account since deleted).
    public let authorID: UserID?

    public init(
        id: EntryID = EntryID(), familyID: FamilyID, content: EntryContent, photoIDs: [PhotoID] = [], createdAt: Date,
        modifiedAt: Date, authorID: UserID? = nil
    ) {
        self.id = id
        self.authorID = authorID
        self.familyID = familyID
        self.content = content
        self.photoIDs = photoIDs
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
    }

    /// Which edit of the entry this is: its last change in whole milliseconds, which the stores keep strictly
    /// increasing per entry (`nextModifiedAt`). HTTP sends it as the entry's ETag; `If-Match` gives it back.
    public var version: Int64 { Int64((modifiedAt.timeIntervalSince1970 * 1000).rounded(.down)) }

    /// The time to record for an update at `now`: never the same millisecond as the stored one, so that two edits
    /// within a millisecond still differ in `version`.
    public func nextModifiedAt(now: Date) -> Date {
        max(now, Date(timeIntervalSince1970: Double(version + 1) / 1000))
    }
}

/// The parts of an entry that its author writes, already validated.
public struct EntryContent: Hashable, Sendable {
    public var title: String
    /// Plain text with light Markdown.
    public var body: String
    public var date: LocalDateTime
    /// IANA time zone of `date`, e.g. `Asia/Seoul`.
    public var timeZone: String
    /// One or more children, in the order given, without repeats.
    public var childIDs: [ChildID]
    /// Tag names, normalised and without repeats.
    public var tags: [String]
    public var place: Place?
    public var weather: String?

    public static let defaultTimeZone = "Asia/Seoul"

    /// An IANA zone name such as Asia/Seoul (or UTC); abbreviations such as KST are ambiguous and refused.
    public static func isTimeZone(_ name: String) -> Bool {
        // The default without asking Foundation, which makes a TimeZone to answer (every entry read back asks).
        if name == defaultTimeZone { return true }
        // By byte: Foundation's `contains` of a string was a hundredth of reading a timeline's entries back.
        return TimeZone(identifier: name) != nil && (name.utf8.contains(UInt8(ascii: "/")) || name == "UTC")
    }
    public static let maxTitleLength = 200
    public static let maxBodyLength = 100_000
    public static let maxWeatherLength = 100
    public static let maxTags = 50

    public init(
        title: String, body: String, date: LocalDateTime, timeZone: String = EntryContent.defaultTimeZone,
        childIDs: [ChildID], tags: [String] = [], place: Place? = nil, weather: String? = nil
    ) throws(ValidationError) {
        self.title = try Validate.requiredText(title, field: "title", maxLength: Self.maxTitleLength)
        self.body = try Validate.body(body, field: "body", maxLength: Self.maxBodyLength)
        self.date = date
        guard Self.isTimeZone(timeZone) else {
            throw ValidationError(field: "timeZone", "'\(timeZone)' is not an IANA time zone such as Asia/Seoul")
        }
        self.timeZone = timeZone
        var seen = Seen<ChildID>()
        self.childIDs = childIDs.filter { seen.insert($0) }
        guard !self.childIDs.isEmpty else { throw ValidationError(field: "childIds", .noChild) }
        var seenTags = Seen<String>()
        var normalised: [String] = []
        normalised.reserveCapacity(tags.count)
        for tag in tags {
            let name = try Tag.normalisedName(tag)
            if seenTags.insert(Tag.folded(name)) { normalised.append(name) }
        }
        guard normalised.count <= Self.maxTags else {
            throw ValidationError(field: "tags", .tooManyTags(maximum: Self.maxTags, got: normalised.count))
        }
        self.tags = normalised
        self.place = place
        self.weather = try Validate.optionalText(weather, field: "weather", maxLength: Self.maxWeatherLength)
    }
}

/// A named place, optionally with WGS 84 coordinates (both or neither).
public struct Place: Hashable, Sendable {
    public var name: String?
    public var latitude: Double?
    public var longitude: Double?

    public init(name: String?, latitude: Double?, longitude: Double?) throws(ValidationError) {
        self.name = try Validate.optionalText(name, field: "place.name", maxLength: ChildProfile.maxPlaceLength)
        switch (latitude, longitude) {
        case (nil, nil): break
        case (let latitude?, let longitude?):
            guard (-90...90).contains(latitude) else {
                throw ValidationError(field: "place.latitude", .latitudeRange(latitude))
            }
            guard (-180...180).contains(longitude) else {
                throw ValidationError(field: "place.longitude", .longitudeRange(longitude))
            }
        default:
            throw ValidationError(field: latitude == nil ? "place.latitude" : "place.longitude", .halfAPosition)
        }
        guard self.name != nil || latitude != nil else {
            throw ValidationError(field: "place", "needs a name or coordinates")
        }
        self.latitude = latitude
        self.longitude = longitude
    }
}

extension Place {
    /// The Korean administrative place of the coordinates (시도 시군구 읍면동), found on this machine from the bundled
    /// data (docs/place.md); nil without coordinates, outside South Korea, or if the data cannot be read.
    public var region: KoreanPlace? {
        guard let latitude, let longitude, case .success(let places) = KoreanPlaces.bundled else { return nil }
        return places.place(latitude: latitude, longitude: longitude)
    }

    /// What the coordinates lie in: the Korean place (`region`), or outside Korea's areas the country or territory (일본,
    /// 프랑스) from the bundled world table (docs/place.md, "Outside Korea"); both nil without coordinates or at sea.
    public var found: (region: KoreanPlace?, country: Country?) {
        if let region { return (region, nil) }
        guard let latitude, let longitude, case .success(let world) = WorldCountries.bundled else { return (nil, nil) }
        return (nil, world.country(latitude: latitude, longitude: longitude))
    }

    /// What the place is called when nothing was typed: the Korean place in full, else the country; nil when neither.
    public func foundText(english: Bool) -> String? {
        let found = found
        return found.region?.text(english: english) ?? found.country?.text(english: english)
    }
}

/// A label a family puts on entries. Tags are rows with their own ID; entries refer to them by ID.
public struct Tag: Hashable, Sendable {
    public let id: TagID
    public let familyID: FamilyID
    public let name: String

    public init(id: TagID = TagID(), familyID: FamilyID, name: String) {
        self.id = id
        self.familyID = familyID
        self.name = name
    }

    public static let maxNameLength = 50

    /// Trims white space and a leading `#`; 1–50 characters, no commas. The `#` is the first scalar, not the first
    /// character: `#` and a joiner or combining mark after it are one character, whose prefix is not `#`.
    ///
    /// By UTF-8 byte (`#` and `,` are ASCII, and a scalar is a byte that does not continue one): every entry's tags
    /// pass here again on their way out of the database, and walking the scalars three times was 1.4 % of a busy
    /// timeline.
    public static func normalisedName(_ raw: String) throws(ValidationError) -> String {
        var name = raw.trimmingWhitespace()
        if name.utf8.first == UInt8(ascii: "#") { name = String(name.unicodeScalars.dropFirst()).trimmingWhitespace() }
        var scalars = 0, hasComma = false
        for byte in name.utf8 {
            if byte & 0xC0 != 0x80 { scalars += 1 }
            if byte == UInt8(ascii: ",") { hasComma = true }
        }
        guard scalars > 0, scalars <= maxNameLength, !hasComma else {
            throw ValidationError(field: "tags", .notATag(String(raw.unicodeScalars.prefix(60)), maximum: maxNameLength))
        }
        return try Validate.text(name, field: "tags", maxLength: maxNameLength)
    }

    /// The name as repeats are told apart: `lowercased()`, which leaves ASCII without capitals and Hangul syllables
    /// as they are and is not called for them (nearly every tag; it was 1 % of a busy timeline).
    static func folded(_ name: String) -> String {
        for scalar in name.unicodeScalars {
            switch scalar.value {
            case 0x41...0x5A: return name.lowercased()
            case 0..<0x80, 0xAC00...0xD7A3: continue
            default: return name.lowercased()
            }
        }
        return name
    }
}
