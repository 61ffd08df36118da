/// The photo formats Saessak accepts, recognised by content, never by file name.
public enum ImageFormat: String, CaseIterable, Sendable {
    case jpeg, png, webp, heif

    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .heif: "image/heic"
        }
    }

    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .webp: "webp"
        case .heif: "heic"
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

    /// The class of the libvips file loader that must agree with the sniffed type.
    var loader: String {
        switch self {
        case .jpeg: "VipsForeignLoadJpegFile"
        case .png: "VipsForeignLoadPngFile"
        case .webp: "VipsForeignLoadWebpFile"
        case .heif: "VipsForeignLoadHeifFile"
        }
    }

    /// How many leading bytes `sniff` needs.
    public static let sniffLength = 32

    /// The format of a file from its first bytes, or what it looks like when it is not a supported photo.
    public static func sniff(_ bytes: some Collection<UInt8>) -> Result<ImageFormat, PhotoError> {
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
            if ["qt  ", "isom", "mp41", "mp42", "M4V "].contains(brand) { return .failure(.unsupported(detected: "a video")) }
            return .failure(.unsupported(detected: "an ISO media file (\(brand.trimmingCharacters(in: .whitespaces)))"))
        }
        let named: [(prefix: [UInt8], name: String)] = [
            (ascii("GIF8"), "a GIF image"), (ascii("%PDF"), "a PDF document"), (ascii("BM"), "a BMP image"),
            ([0x49, 0x49, 0x2A, 0x00], "a TIFF image"), ([0x4D, 0x4D, 0x00, 0x2A], "a TIFF image"),
            ([0x50, 0x4B, 0x03, 0x04], "a ZIP archive"), ([0x00, 0x00, 0x01, 0x00], "an icon"),
        ]
        if let match = named.first(where: { starts($0.prefix) }) { return .failure(.unsupported(detected: match.name)) }
        if head.isEmpty { return .failure(.unsupported(detected: "an empty file")) }
        if String(bytes: head, encoding: .utf8) != nil || head.allSatisfy({ $0 >= 0x09 && $0 < 0x7F }) {
            return .failure(.unsupported(detected: "text"))
        }
        return .failure(.unsupported(detected: "unrecognised binary data"))
    }
}
