import Foundation

/// Checks an uploaded clip and reads what the diary needs from it, with Debian's `ffprobe` — not the libav*
/// libraries linked into the server: a hostile file that crashes or hangs a demuxer then takes down one short-lived
/// process under a memory and time limit, never the server holding every family's requests (docs/video.md).
public enum VideoInspector {
    /// ffprobe's limits: it maps large shared libraries (about 300 MB of address space before reading a byte) and
    /// needs well under a second on a phone clip; a file that keeps it busy longer is not one.
    static let probeMemory = 1 << 30
    static let probeTime: TimeInterval = 20

    /// The clip's facts; refuses a file that is no clip, breaks the limits, or is cut short.
    public static func inspect(_ file: URL, format: MediaFormat, byteCount: Int, limits: VideoLimits, zone: TimeZone) throws(PhotoError)
        -> VideoInfo
    {
        guard ToolRun.Tool.ffprobe.isInstalled, ToolRun.Tool.ffmpeg.isInstalled else { throw .noVideoTools }
        guard byteCount <= limits.maxBytes else {
            throw .tooLarge("the video is \(ImageInspector.megabytes(byteCount)), more than the \(ImageInspector.megabytes(limits.maxBytes)) limit")
        }
        let input = MediaInput(path: file.path, format: format)
        let probe = try ToolRun.run(
            .ffprobe, ["-v", "error", "-print_format", "json", "-show_format", "-show_streams"], input: input,
            memory: probeMemory, timeout: probeTime)
        guard probe.succeeded else { throw .corruptVideo(reason(probe)) }
        let info = try VideoProbe.read(probe.output, format: format, limits: limits, zone: zone)
        try checkEnd(input, info: info, byteCount: byteCount)
        return info
    }

    /// A clip whose index comes first (`faststart`) and whose data was cut off still describes itself in full; its
    /// last seconds are read to find out: ffprobe then reports the packets missing or lying past the end.
    static func checkEnd(_ input: MediaInput, info: VideoInfo, byteCount: Int) throws(PhotoError) {
        let from = max(0, Double(info.durationMilliseconds) / 1000 - 2)
        let tail = try ToolRun.run(
            .ffprobe,
            ["-v", "error", "-read_intervals", String(format: "%.3f%%", from), "-show_entries", "packet=pos,size", "-of", "csv=p=0"],
            input: input, memory: probeMemory, timeout: probeTime)
        guard tail.succeeded else { throw .corruptVideo(reason(tail)) }
        var packets = 0
        for line in String(decoding: tail.output, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let size = Int(fields[0]), let position = Int(fields[1]) else { continue }
            guard position.addingReportingOverflow(size).partialValue <= byteCount, position >= 0, size >= 0 else {
                throw .corruptVideo("the file is cut short: its index points past its end")
            }
            packets += 1
        }
        if tail.errors.contains("partial file") || packets == 0 {
            throw .corruptVideo("the file is cut short: its last seconds are missing")
        }
    }

    /// Why ffprobe gave up, in a few words of our own (its text names server paths).
    static func reason(_ outcome: ToolRun.Outcome) -> String {
        if outcome.timedOut { return "inspecting it took too long" }
        if outcome.errors.contains("moov atom not found") { return "the file is cut short (its index is missing)" }
        if outcome.errors.contains("Invalid data found") { return "it is not a video container ffmpeg can open" }
        return "ffprobe could not open it"
    }
}
