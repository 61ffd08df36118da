/// Why a photo was refused or could not be processed. The web layer maps each case to one status
/// (415, 413, 422, 500, 503).
public enum PhotoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not JPEG, PNG, WebP, HEIC/HEIF, MP4, QuickTime or WebM; carries what the content looks like.
    case unsupported(detected: String)
    /// Over a byte or pixel limit; carries which and by how much.
    case tooLarge(String)
    /// The file claims a supported type but does not decode; carries libvips' message, for the log.
    case corrupt(String)
    /// A video file that ffprobe cannot make sense of, or that is cut short; carries what is wrong, in Saessak's
    /// own words (ffprobe's go to the log only).
    case corruptVideo(String)
    /// A video clip, on a server without Debian's ffmpeg to read it.
    case noVideoTools
    /// Something on the server failed (disk, libvips start-up).
    case `internal`(String)
    /// The photo store (object storage) cannot be reached just now: try again shortly.
    case unavailable(String)

    /// The HTTP status of a refusal of the file itself — 415 (not a format taken), 413 (over a limit), 422 (does not
    /// decode) — which sending it again cannot change; nil for the server's own failures (500, 503).
    public var refusalStatus: Int? {
        switch self {
        case .unsupported, .noVideoTools: 415
        case .tooLarge: 413
        case .corrupt, .corruptVideo: 422
        case .internal, .unavailable: nil
        }
    }

    public var description: String {
        switch self {
        case .unsupported(let detected):
            "\(detected) is not a supported photo or video format (JPEG, PNG, WebP, HEIC; MP4, MOV, WebM)"
        case .tooLarge(let why): why
        // libvips' own words go to the log only: its error buffer is shared by every thread and names server paths.
        case .corrupt: "the image could not be read: the data is damaged or cut short"
        case .corruptVideo(let why): "the video could not be read: \(why)"
        case .noVideoTools: "this server cannot take video clips: ffmpeg is not installed (Debian package ffmpeg)"
        case .internal(let why): why
        case .unavailable(let why): why
        }
    }
}
