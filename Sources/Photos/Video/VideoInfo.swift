import Foundation

/// What Saessak learns from a video clip (through `ffprobe`): the picture as displayed, how long it runs, its codecs,
/// and — as EXIF does for photos — when and where it was filmed.
public struct VideoInfo: Hashable, Sendable {
    public let format: MediaFormat
    /// As displayed: after the rotation the phone recorded.
    public let width: Int
    public let height: Int
    /// Degrees the picture is turned when shown (0, 90, 180, 270).
    public let rotation: Int
    public let durationMilliseconds: Int
    /// ffmpeg's codec names: `h264`, `hevc`, `vp9`, …; audio nil when the clip is silent.
    public let videoCodec: String
    public let audioCodec: String?
    public let taken: CaptureTime?
    public let latitude: Double?
    public let longitude: Double?
    public let cameraMake: String?
    public let cameraModel: String?

    /// What the browser needs done before it can play the clip.
    public var rendition: RenditionPlan { RenditionPlan(format: format, videoCodec: videoCodec, audioCodec: audioCodec) }
}

/// How a clip is made playable in every common browser (Chromium does not decode HEVC without hardware support,
/// and plays QuickTime files only by chance).
public enum RenditionPlan: String, Sendable {
    /// The original plays as it is: MP4 with H.264 and AAC, or WebM with VP8/VP9/AV1 and Opus/Vorbis.
    case none
    /// Its streams are fine in an MP4 box: copied, not re-encoded.
    case remux
    /// Re-encoded to H.264/AAC MP4, at most 1080p.
    case transcode

    public init(format: MediaFormat, videoCodec: String, audioCodec: String?) {
        switch format {
        case .mp4 where videoCodec == "h264" && [nil, "aac", "mp3"].contains(audioCodec): self = .none
        case .webm where ["vp8", "vp9", "av1"].contains(videoCodec) && [nil, "opus", "vorbis"].contains(audioCodec): self = .none
        // iPhone's H.264 QuickTime: the same streams, moved into MP4 without re-encoding.
        case .mov where videoCodec == "h264" && [nil, "aac"].contains(audioCodec): self = .remux
        default: self = .transcode
        }
    }
}

/// What an upload may be for videos: phone clips of a minute or two are 50–500 MB.
public struct VideoLimits: Sendable, Hashable {
    public var maxBytes: Int
    public var maxSeconds: Int
    /// Either side of the picture: 8K is 7680.
    public var maxSide: Int

    public init(maxBytes: Int = 1 << 30, maxSeconds: Int = 15 * 60, maxSide: Int = 8192) {
        self.maxBytes = maxBytes
        self.maxSeconds = maxSeconds
        self.maxSide = maxSide
    }
}
