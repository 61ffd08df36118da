/// Why a photo was refused or could not be processed. The web layer maps each case to one status
/// (415, 413, 422, 500, 503).
public enum PhotoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not JPEG, PNG, WebP or HEIC/HEIF; carries what the content looks like.
    case unsupported(detected: String)
    /// Over a byte or pixel limit; carries which and by how much.
    case tooLarge(String)
    /// The file claims a supported type but does not decode; carries libvips' message, for the log.
    case corrupt(String)
    /// Something on the server failed (disk, libvips start-up).
    case `internal`(String)
    /// The photo store (object storage) cannot be reached just now: try again shortly.
    case unavailable(String)

    public var description: String {
        switch self {
        case .unsupported(let detected):
            "\(detected) is not a supported photo format (JPEG, PNG, WebP, HEIC)"
        case .tooLarge(let why): why
        // libvips' own words go to the log only: its error buffer is shared by every thread and names server paths.
        case .corrupt: "the image could not be read: the data is damaged or cut short"
        case .internal(let why): why
        case .unavailable(let why): why
        }
    }
}
