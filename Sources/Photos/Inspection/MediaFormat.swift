import Diary

/// The photo and video formats Saessak accepts, recognised by content, never by file name.
public enum MediaFormat: String, CaseIterable, Sendable {
    case jpeg, png, webp, heif
    /// Video clips: MPEG-4 (Android, most cameras), QuickTime (iPhone), WebM (browsers' own recordings).
    case mp4, mov, webm

    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .heif: "image/heic"
        case .mp4: "video/mp4"
        case .mov: "video/quicktime"
        case .webm: "video/webm"
        }
    }

    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .webp: "webp"
        case .heif: "heic"
        case .mp4: "mp4"
        case .mov: "mov"
        case .webm: "webm"
        }
    }

    public var isVideo: Bool {
        switch self {
        case .mp4, .mov, .webm: true
        case .jpeg, .png, .webp, .heif: false
        }
    }

    /// The format stored under this MIME type (a photo row's) or file extension (a stored file's name), if any.
    public init?(mimeType: String) {
        guard let format = Self.allCases.first(where: { $0.mimeType == mimeType }) else { return nil }
        self = format
    }

    public init?(fileExtension: some StringProtocol) {
        guard let format = Self.allCases.first(where: { $0.fileExtension == fileExtension }) else { return nil }
        self = format
    }

    /// The libvips file loader a file of the sniffed type is opened with, and no other (none for a video).
    var loader: String? {
        switch self {
        case .jpeg: "jpegload"
        case .png: "pngload"
        case .webp: "webpload"
        case .heif: "heifload"
        case .mp4, .mov, .webm: nil
        }
    }

    /// How many leading bytes `sniff` needs (a WebM file names its kind a few dozen bytes in).
    public static let sniffLength = 64

    /// ISO media brands of video files (`ftyp`): QuickTime, then the MPEG-4 family phones and cameras write.
    static let quickTimeBrands: Set<String> = ["qt  "]
    static let mpeg4Brands: Set<String> = [
        "isom", "iso2", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "M4V ", "M4VP", "M4VH", "3gp4", "3gp5", "3gp6", "3g2a",
        "dash", "MSNV", "XAVC", "mmp4", "f4v ",
    ]

    /// The format of a file from its first bytes, or what it looks like when it is not a supported photo.
    public static func sniff(_ bytes: some Collection<UInt8>) -> Result<MediaFormat, PhotoError> {
        let head = Array(bytes.prefix(sniffLength))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + prefix.count && Array(head[offset..<offset + prefix.count]) == prefix
        }
        let ascii = { (text: String) in Array(text.utf8) }
        if starts([0xFF, 0xD8, 0xFF]) { return .success(.jpeg) }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .success(.png) }
        if starts(ascii("RIFF")) && starts(ascii("WEBP"), at: 8) { return .success(.webp) }
        if starts(ascii("ftyp"), at: 4), head.count >= 12 {
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            if ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"].contains(brand) { return .success(.heif) }
            if brand.hasPrefix("avi") { return .failure(.unsupported(detected: "an AVIF image")) }
            if quickTimeBrands.contains(brand) { return .success(.mov) }
            if mpeg4Brands.contains(brand) { return .success(.mp4) }
            if brand.hasPrefix("M4A") { return .failure(.unsupported(detected: "an audio file (M4A)")) }
            return .failure(.unsupported(detected: "an ISO media file (\(brand.trimmingCharacters(in: .whitespaces)))"))
        }
        // Old QuickTime files start with a `moov`, `mdat`, `wide`, `free` or `skip` atom instead of `ftyp`; the atom
        // must also look like one (`<!--free-->` before a DASH manifest did not, and passed).
        if head.count >= 8, quickTimeFirstAtoms.contains(String(decoding: head[4..<8], as: UTF8.self)) {
            guard isPlausibleFirstAtom(head) else {
                return .failure(.unsupported(detected: "a file that only starts like a QuickTime video"))
            }
            return .success(.mov)
        }
        // EBML (Matroska and WebM): the header names its document type near the start.
        if starts([0x1A, 0x45, 0xDF, 0xA3]) {
            if ByteSearch.contains("webm", in: head) { return .success(.webm) }
            return .failure(.unsupported(detected: ByteSearch.contains("matroska", in: head) ? "a Matroska video (MKV)" : "an EBML file"))
        }
        let named: [(prefix: [UInt8], name: String)] = [
            (ascii("GIF8"), "a GIF image"), (ascii("%PDF"), "a PDF document"), (ascii("BM"), "a BMP image"),
            ([0x49, 0x49, 0x2A, 0x00], "a TIFF image"), ([0x4D, 0x4D, 0x00, 0x2A], "a TIFF image"),
            ([0x50, 0x4B, 0x03, 0x04], "a ZIP archive"), ([0x00, 0x00, 0x01, 0x00], "an icon"),
        ]
        if let match = named.first(where: { starts($0.prefix) }) { return .failure(.unsupported(detected: match.name)) }
        if starts(ascii("RIFF")) && starts(ascii("AVI "), at: 8) { return .failure(.unsupported(detected: "an AVI video")) }
        if head.isEmpty { return .failure(.unsupported(detected: "an empty file")) }
        if String(bytes: head, encoding: .utf8) != nil || head.allSatisfy({ $0 >= 0x09 && $0 < 0x7F }) {
            return .failure(.unsupported(detected: "text"))
        }
        return .failure(.unsupported(detected: "unrecognised binary data"))
    }

    static let quickTimeFirstAtoms: Set<String> = ["moov", "mdat", "wide", "free", "skip"]
    /// What may follow a leading `wide`/`free`/`skip` atom, and what a `moov` atom starts with.
    static let quickTimeTopAtoms: Set<String> = ["moov", "mdat", "wide", "free", "skip", "ftyp", "pnot", "uuid"]
    static let quickTimeMovieAtoms: Set<String> = ["mvhd", "trak", "udta", "cmov", "iods", "meta", "prfl", "clip", "ctab", "rmra"]

    /// A leading QuickTime atom whose size makes sense: a size of 0 (to the end), 1 (64 bits follow) or at least 8, not
    /// four printable characters (no real atom of under 512 MB starts so); a padding atom (`wide`, `free`, `skip`)
    /// followed, within the bytes seen, by another known atom; a `moov` that starts with a movie atom.
    static func isPlausibleFirstAtom(_ head: [UInt8]) -> Bool {
        func size(at offset: Int) -> Int? {
            guard head.count >= offset + 8 else { return nil }
            return head[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        func type(at offset: Int) -> String? {
            guard head.count >= offset + 8 else { return nil }
            return String(decoding: head[offset + 4..<offset + 8], as: UTF8.self)
        }
        guard let first = size(at: 0), first == 0 || first == 1 || first >= 8,
            !head[0..<4].allSatisfy({ (0x20...0x7E).contains($0) }),
            let kind = type(at: 0)
        else { return false }
        switch kind {
        case "wide", "free", "skip":
            guard first >= 8, let next = type(at: first) else { return false }
            return quickTimeTopAtoms.contains(next)
        case "moov":
            guard let child = type(at: 8) else { return head.count < 16 }
            return quickTimeMovieAtoms.contains(child)
        default:
            return true
        }
    }
}
