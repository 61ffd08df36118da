import Foundation

/// Reads what `ffprobe -print_format json -show_format -show_streams` says about a clip. Its text comes from a file
/// someone uploaded (tags are the file's own bytes): nothing here trusts a value, converts a number unchecked or
/// traps, and a clip that makes no sense (no picture, no or absurd duration or size) is refused by name.
public enum VideoProbe {
    struct Answer: Decodable {
        let streams: [Stream]?
        let format: Format?
    }

    struct Stream: Decodable {
        let codec_type: String?
        let codec_name: String?
        let width: Int?
        let height: Int?
        let duration: String?
        let tags: [String: String]?
        let side_data_list: [SideData]?
        let disposition: [String: Int]?
    }

    struct SideData: Decodable {
        let rotation: Double?
    }

    struct Format: Decodable {
        let format_name: String?
        let duration: String?
        let tags: [String: String]?
    }

    /// What no phone or camera writes: a side of more than 16K pixels, a clip of more than a day.
    static let absurdSide = 16384
    static let absurdSeconds: Double = 24 * 3600

    /// The clip's facts from ffprobe's answer; `zone` places a capture time recorded only in UTC (most MP4 files) on
    /// the family's clock.
    public static func read(_ json: Data, format: MediaFormat, limits: VideoLimits, zone: TimeZone) throws(PhotoError) -> VideoInfo {
        let answer: Answer
        do {
            answer = try JSONDecoder().decode(Answer.self, from: json)
        } catch {
            throw .corrupt("ffprobe's answer could not be read")
        }
        // The demuxer was named; a file it read as something else (a nested playlist, say) is not what we decided.
        guard let reported = answer.format?.format_name, reported == format.demuxer?.reported else {
            throw .corruptVideo("it is not the \(format.fileExtension.uppercased()) container it starts like")
        }
        let streams = answer.streams ?? []
        // Cover art in a QuickTime file is a one-frame "video" stream marked as an attached picture.
        guard let video = streams.first(where: { $0.codec_type == "video" && ($0.disposition?["attached_pic"] ?? 0) == 0 }),
            let codec = video.codec_name?.nilIfEmpty
        else { throw .corruptVideo("the file holds no video picture") }
        let audio = streams.first { $0.codec_type == "audio" }?.codec_name?.nilIfEmpty
        guard let width = video.width, let height = video.height, width > 0, height > 0 else {
            throw .corruptVideo("the video's picture size is missing")
        }
        // Beyond any camera (a crafted header): damaged, not merely too large.
        guard width <= Self.absurdSide, height <= Self.absurdSide else {
            throw .corruptVideo("it claims a picture of \(width)×\(height) pixels")
        }
        guard width <= limits.maxSide, height <= limits.maxSide else {
            throw .tooLarge("the video is \(width)×\(height) pixels, more than \(limits.maxSide) on a side")
        }
        guard let seconds = (answer.format?.duration ?? video.duration).flatMap(Double.init), seconds.isFinite, seconds > 0 else {
            throw .corruptVideo("the video's length could not be read")
        }
        guard seconds <= Self.absurdSeconds else { throw .corruptVideo("it claims to run \(Duration.clock(seconds))") }
        guard seconds <= Double(limits.maxSeconds) else {
            throw .tooLarge("the video runs \(Duration.clock(seconds)), longer than the \(Duration.clock(Double(limits.maxSeconds))) limit")
        }
        let rotation = normalised(rotation: video.side_data_list?.compactMap(\.rotation).first ?? video.tags?["rotate"].flatMap(Double.init))
        let tags = (answer.format?.tags ?? [:]).merging(video.tags ?? [:]) { format, _ in format }
        let place = tags["com.apple.quicktime.location.ISO6709"] ?? tags["location"] ?? tags["location-eng"]
        let point = place.flatMap(ISO6709.parse)
        return VideoInfo(
            format: format, width: rotation % 180 == 0 ? width : height, height: rotation % 180 == 0 ? height : width,
            rotation: rotation, durationMilliseconds: max(1, Int((seconds * 1000).rounded())), videoCodec: codec,
            audioCodec: audio, taken: captureTime(tags, zone: zone), latitude: point?.latitude, longitude: point?.longitude,
            cameraMake: (tags["com.apple.quicktime.make"] ?? tags["make"]).flatMap(cleaned),
            cameraModel: (tags["com.apple.quicktime.model"] ?? tags["model"]).flatMap(cleaned))
    }

    /// 0, 90, 180 or 270 from a display matrix's angle (either sign, any turn); anything else counts as upright.
    static func normalised(rotation: Double?) -> Int {
        guard let rotation, rotation.isFinite, abs(rotation) <= 3600 else { return 0 }
        let quarter = (rotation / 90).rounded()
        guard abs(rotation - quarter * 90) < 1 else { return 0 }
        return ((Int(quarter) % 4 + 4) % 4) * 90
    }

    /// QuickTime's `com.apple.quicktime.creationdate` keeps the phone's wall clock and offset
    /// (`2026-05-05T14:30:12+0900`); `creation_time` is UTC (`2026-05-05T05:30:12.000000Z`), shown on `zone`'s clock.
    static func captureTime(_ tags: [String: String], zone: TimeZone) -> CaptureTime? {
        if let text = tags["com.apple.quicktime.creationdate"], let local = wallClock(text) {
            let rest = text.dropFirst(19).drop { $0 == "." || $0.isASCII && $0.isNumber }  // fractions of a second
            return CaptureTime(local: local, offset: offset(String(rest)))
        }
        guard let text = tags["creation_time"], let local = wallClock(text) else { return nil }
        // ffmpeg writes UTC, with a `Z` or nothing after the seconds and their fraction.
        let designator = text.dropFirst(19).drop { $0 == "." || $0.isASCII && $0.isNumber }
        guard designator.isEmpty || designator == "Z" else { return nil }
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC") ?? .current
        let digits = local.split(whereSeparator: { "-T:".contains($0) }).compactMap { Int($0) }
        guard digits.count == 6,
            let instant = utc.date(from: DateComponents(
                year: digits[0], month: digits[1], day: digits[2], hour: digits[3], minute: digits[4], second: digits[5]))
        else { return nil }
        var there = Calendar(identifier: .gregorian)
        there.timeZone = zone
        let parts = there.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant)
        let seconds = zone.secondsFromGMT(for: instant)
        let shown = String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
            parts.minute ?? 0, parts.second ?? 0)
        let sign = seconds < 0 ? "-" : "+"
        return CaptureTime(local: shown, offset: String(format: "%@%02d:%02d", sign, abs(seconds) / 3600, abs(seconds) % 3600 / 60))
    }

    /// `YYYY-MM-DDTHH:MM:SS` from the start of an ISO 8601 time (a space for the `T` accepted), or nil.
    static func wallClock(_ text: String) -> String? {
        guard text.utf8.count >= 19 else { return nil }
        var local = String(text.prefix(19))
        if local.count == 19, Array(local)[10] == " " { local = String(local.prefix(10)) + "T" + String(local.suffix(8)) }
        // Cameras without a clock write QuickTime's zero (1904-01-01) or 1970-01-01.
        guard let time = CaptureTime(local: local, offset: nil), !time.local.hasPrefix("1904-01-01"), !time.local.hasPrefix("1970-01-01")
        else { return nil }
        return time.local
    }

    /// `+0900`, `+09:00` or `Z` as `+09:00`; nil for anything else.
    static func offset(_ text: String) -> String? {
        if text == "Z" { return "+00:00" }
        let bytes = Array(text.utf8)
        if bytes.count == 5, CaptureTime.matches(text, "+9999") || CaptureTime.matches(text, "-9999") {
            return String(text.prefix(3)) + ":" + String(text.suffix(2))
        }
        return CaptureTime.matches(text, "+99:99") || CaptureTime.matches(text, "-99:99") ? text : nil
    }

    /// Printable text of a tag, trimmed, at most 100 characters.
    static func cleaned(_ text: String) -> String? {
        String(text.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }.prefix(100))
            .trimmingCharacters(in: .whitespaces).nilIfEmpty
    }
}

/// ISO 6709 positions as phones write them in video metadata: `+37.5665+126.9780+012.345/` (degrees, with an
/// optional height), or the degrees-and-minutes forms `+3733.99+12658.68/` and `+373359.4+1265852.8/`.
public enum ISO6709 {
    public static func parse(_ text: String) -> (latitude: Double, longitude: Double)? {
        let scalars = Array(text.utf8.prefix(64))
        var parts: [String] = []
        var current = ""
        for byte in scalars {
            if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                if !current.isEmpty { parts.append(current) }
                current = String(UnicodeScalar(byte))
            } else if byte == UInt8(ascii: "/") {
                break
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") {
                guard !current.isEmpty else { return nil }
                current.append(Character(UnicodeScalar(byte)))
            } else if byte == UInt8(ascii: "C"), parts.count >= 2 {
                break  // "CRSxxxx": a coordinate reference system after the height
            } else {
                return nil
            }
        }
        if !current.isEmpty { parts.append(current) }
        guard parts.count >= 2, let latitude = degrees(parts[0], degreeDigits: 2), let longitude = degrees(parts[1], degreeDigits: 3),
            abs(latitude) <= 90, abs(longitude) <= 180, !(latitude == 0 && longitude == 0)
        else { return nil }
        return (latitude, longitude)
    }

    /// `±DD.D`, `±DDMM.M` or `±DDMMSS.S` (three degree digits for longitude) as signed degrees.
    static func degrees(_ part: String, degreeDigits: Int) -> Double? {
        let sign: Double = part.hasPrefix("-") ? -1 : 1
        let body = part.dropFirst()
        let whole = body.prefix { $0 != "." }
        guard !whole.isEmpty, body.filter({ $0 == "." }).count <= 1, let value = Double(body), value.isFinite else { return nil }
        switch whole.count - degreeDigits {
        case 0:
            return sign * value
        case 2:
            let degrees = (value / 100).rounded(.down), minutes = value - degrees * 100
            return minutes < 60 ? sign * (degrees + minutes / 60) : nil
        case 4:
            let degrees = (value / 10000).rounded(.down), rest = value - degrees * 10000
            let minutes = (rest / 100).rounded(.down), seconds = rest - minutes * 100
            return minutes < 60 && seconds < 60 ? sign * (degrees + minutes / 60 + seconds / 3600) : nil
        default:
            return nil
        }
    }
}

extension Duration {
    /// `0:23`, `12:05`, `1:02:03`: how players show a clip's length.
    public static func clock(_ seconds: Double) -> String {
        let total = seconds.isFinite ? Int(min(max(seconds.rounded(), 0), 359_999)) : 0
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }
}
