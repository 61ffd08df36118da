import Foundation

/// What ffmpeg makes of a clip: the poster frame its thumbnails are made from, and the web rendition browsers play.
/// Both run `ffmpeg` through `ToolRun` (no shell, fixed arguments, memory and time limits).
public enum VideoRendition {
    /// x264 at 1080p with two threads stays near 350 MB resident; the address space it maps is several times that.
    static let ffmpegMemory = 4 << 30
    static let posterTime: TimeInterval = 30

    /// Writes one frame of the clip, upright, as a JPEG at `poster` — a second in, or halfway through a shorter clip.
    public static func posterFrame(of clip: MediaInput, durationMilliseconds: Int?, to poster: URL) throws(PhotoError) {
        let at = min(1.0, Double(durationMilliseconds ?? 0) / 2000)
        let outcome = try ToolRun.run(
            .ffmpeg, ["-nostdin", "-v", "error", "-y", "-ss", String(format: "%.3f", at)], input: clip,
            outputs: ["-frames:v", "1", "-map", "0:v:0", "-q:v", "2", "-f", "image2", "-c:v", "mjpeg", "-pix_fmt", "yuvj420p",
                      "file:" + poster.path],
            memory: ffmpegMemory, timeout: posterTime)
        guard outcome.succeeded, (try? poster.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0) ?? 0 > 0 else {
            try? FileManager.default.removeItem(at: poster)
            throw .corruptVideo("no picture could be taken from it")
        }
    }

    /// The thumbnail of a clip: its poster frame (written to `poster`, a scratch file, and deleted), made smaller like
    /// a photo.
    public static func thumbnail(of clip: MediaInput, durationMilliseconds: Int?, size: ThumbnailSize, poster: URL) throws(PhotoError) -> Data {
        defer { try? FileManager.default.removeItem(at: poster) }
        try posterFrame(of: clip, durationMilliseconds: durationMilliseconds, to: poster)
        return try Thumbnailer.thumbnail(of: poster, size: size)
    }

    /// The ffmpeg output arguments that turn a clip into a web rendition at `output` (H.264/AAC MP4, `faststart`, at
    /// most 1080 pixels on the short side, upright, no metadata); the benchmark runs the same list by hand.
    public static func outputs(_ plan: RenditionPlan, output: URL) -> [String] {
        var arguments = ["-map", "0:v:0", "-map", "0:a:0?", "-sn", "-dn"] + withoutMetadata
        switch plan {
        case .none, .remux:
            arguments += ["-c", "copy"]
        case .transcode:
            // The short side at most 1080, never enlarged; sizes even, as H.264 in 4:2:0 needs.
            let scale = "scale='if(gte(iw,ih),-2,min(1080,trunc(iw/2)*2))':'if(gte(iw,ih),min(1080,trunc(ih/2)*2),-2)'"
            arguments += ["-vf", scale, "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p",
                          "-threads", "2", "-c:a", "aac", "-b:a", "128k", "-ac", "2"]
        }
        return arguments + ["-movflags", "+faststart", "-f", "mp4", "file:" + output.path]
    }

    /// No tag of the file, its streams or chapters (place, camera, title, comment, capture time), no encoder version.
    static let withoutMetadata = [
        "-map_metadata", "-1", "-map_metadata:s:v", "-1", "-map_metadata:s:a", "-1", "-map_chapters", "-1",
        "-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact",
    ]

    /// Makes the rendition, reporting the share done (0…1) as ffmpeg goes; `started` receives the running tool so
    /// a shutdown can stop it. Time allowed: ten times the clip's length, and at least ten minutes.
    public static func make(
        _ plan: RenditionPlan, clip: MediaInput, durationMilliseconds: Int, output: URL, started: (ToolRun) -> Void = { _ in },
        progress: @escaping @Sendable (Double) -> Void
    ) throws(PhotoError) {
        let total = Double(max(1, durationMilliseconds)) * 1000
        let timeout = max(600, Double(durationMilliseconds) / 100)
        let outcome = try ToolRun.run(
            .ffmpeg, ["-nostdin", "-v", "error", "-y"], input: clip,
            outputs: outputs(plan, output: output).dropLast(1) + ["-progress", "pipe:1", "-nostats", "file:" + output.path],
            memory: ffmpegMemory, timeout: timeout, started: started
        ) { line in
            guard line.hasPrefix("out_time_us="), let done = Double(line.dropFirst("out_time_us=".count)), done.isFinite else { return }
            progress(min(1, max(0, done / total)))
        }
        guard outcome.succeeded else {
            try? FileManager.default.removeItem(at: output)
            if outcome.timedOut { throw .corruptVideo("converting it took longer than \(Int(timeout / 60)) minutes") }
            throw outcome.status == nil ? .internal("making the web rendition was stopped") : .corruptVideo("ffmpeg could not convert it")
        }
    }

    /// A copy of a clip that plays as it is (MP4 H.264/AAC, WebM) for people outside the family: the same streams in
    /// the same container, every tag dropped (a share link never hands out the phone's GPS, title or comments).
    public static func strippedCopy(of clip: MediaInput, durationMilliseconds: Int, output: URL) throws(PhotoError) {
        let container = clip.format == .webm ? ["-f", "webm"] : ["-movflags", "+faststart", "-f", "mp4"]
        let outcome = try ToolRun.run(
            .ffmpeg, ["-nostdin", "-v", "error", "-y"], input: clip,
            outputs: ["-map", "0:v:0", "-map", "0:a:0?", "-sn", "-dn"] + withoutMetadata + ["-c", "copy"] + container + ["file:" + output.path],
            memory: ffmpegMemory, timeout: max(120, Double(durationMilliseconds) / 500))
        guard outcome.succeeded else {
            try? FileManager.default.removeItem(at: output)
            throw outcome.timedOut ? .corruptVideo("copying it took too long") : .corruptVideo("ffmpeg could not copy it")
        }
    }
}
