/// A clip handed to ffprobe or ffmpeg, pinned to the container we decided it is. Left to itself ffmpeg picks the
/// demuxer that scores highest on the bytes and opens whatever the file names: `<!--free-->` and a DASH manifest passed
/// the sniff as QuickTime, and ffmpeg then read another family's clip through the manifest's `file:///` address
/// (issue 33). So the demuxer is named (`-f`), only it may be used (`-format_whitelist`, which also binds every
/// demuxer a nested open would try), only the `file` protocol may open anything (`-protocol_whitelist`), the input
/// is a `file:` URL (a path that starts `subfile:` or holds a `|` means nothing else), and QuickTime's external data
/// references stay off (`-enable_drefs 0`). `ToolRun` runs ffprobe and ffmpeg only with one of these as the input.
public struct MediaInput: Sendable {
    public let path: String
    public let format: MediaFormat

    public init(path: String, format: MediaFormat) {
        self.path = path
        self.format = format
    }

    /// The input options and the input itself, in the order ffmpeg and ffprobe read them.
    var arguments: [String] {
        guard let demuxer = format.demuxer else { return ["-i", "file:" + path] }
        var arguments = ["-f", demuxer.option, "-format_whitelist", demuxer.reported, "-protocol_whitelist", "file"]
        if demuxer.option == "mov" { arguments += ["-enable_drefs", "0"] }
        return arguments + ["-i", "file:" + path]
    }
}

extension MediaFormat {
    /// The demuxer of a clip's container, as `-f` names it, and the name ffprobe reports for it (`format_name`).
    public var demuxer: (option: String, reported: String)? {
        switch self {
        case .mp4, .mov: ("mov", "mov,mp4,m4a,3gp,3g2,mj2")
        case .webm: ("matroska", "matroska,webm")
        case .jpeg, .png, .webp, .heif: nil
        }
    }
}
