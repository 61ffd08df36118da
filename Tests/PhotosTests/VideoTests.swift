import Diary
import Foundation
import Testing

@testable import Photos

@Suite struct VideoFormatTests {
    static let webmHead: [UInt8] = [
        0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01, 0x42, 0xF7, 0x81, 0x01, 0x42, 0xF2, 0x81, 0x04, 0x42, 0xF3, 0x81, 0x08,
        0x42, 0x82, 0x84, 0x77, 0x65, 0x62, 0x6D,
    ]
    static let mkvHead: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x82, 0x88] + Array("matroska".utf8)

    @Test(arguments: [
        (Array("\u{0}\u{0}\u{0}\u{14}ftypqt  \u{0}\u{0}\u{2}\u{0}qt  ".utf8), MediaFormat.mov),
        (Array("\u{0}\u{0}\u{0}\u{20}ftypisom\u{0}\u{0}\u{2}\u{0}isomiso2avc1mp41".utf8), .mp4),
        (Array("\u{0}\u{0}\u{0}\u{18}ftypmp42\u{0}\u{0}\u{0}\u{0}".utf8), .mp4),
        (Array("\u{0}\u{0}\u{0}\u{8}wide\u{0}\u{0}\u{0}\u{0}mdat".utf8), .mov),
        (webmHead, .webm),
    ])
    func videosRecognisedByContent(_ bytes: [UInt8], _ format: MediaFormat) throws {
        #expect(try MediaFormat.sniff(bytes).get() == format)
        #expect(format.isVideo)
    }

    @Test(arguments: [
        (mkvHead, "a Matroska video (MKV)"),
        (Array("RIFF\u{0}\u{0}\u{0}\u{0}AVI LIST".utf8), "an AVI video"),
        (Array("\u{0}\u{0}\u{0}\u{18}ftypM4A \u{0}\u{0}\u{0}\u{0}".utf8), "an audio file (M4A)"),
    ])
    func otherMediaRefusedByName(_ bytes: [UInt8], _ detected: String) {
        #expect(throws: PhotoError.unsupported(detected: detected)) { try MediaFormat.sniff(bytes).get() }
    }

    /// Text that starts like a QuickTime atom (issue 33: `<!--free-->` and a DASH manifest passed as `.mov`).
    @Test(arguments: [
        "<!--free--><MPD><BaseURL>file:///etc/passwd</BaseURL></MPD>",
        "#EXTfree\n#EXTM3U\n#EXTINF:1,\nfile:///etc/passwd\n",
        "ffcofree\nfile 'a.mp4'\n",
        "\u{0}\u{0}\u{0}\u{8}free<MPD mediaPresentationDuration='PT1S'>",
        "\u{0}\u{0}\u{0}\u{4}mdat",
        "\u{0}\u{0}\u{0}\u{10}moov#EXTM3U\n#EXT-X-",
    ])
    func playlistsDressedAsQuickTimeRefused(_ text: String) {
        #expect(throws: PhotoError.unsupported(detected: "a file that only starts like a QuickTime video")) {
            try MediaFormat.sniff(Array(text.utf8)).get()
        }
    }

    @Test(arguments: [
        "\u{0}\u{0}\u{0}\u{8}free\u{0}\u{0}\u{1}\u{0}mdat",
        "\u{0}\u{0}\u{0}\u{10}skip\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{8}moov",
        "\u{0}\u{0}\u{2}\u{0}moov\u{0}\u{0}\u{0}\u{6C}mvhd",
        "\u{0}\u{0}\u{0}\u{1}mdat\u{0}\u{0}\u{0}\u{0}\u{0}\u{1}\u{0}\u{0}",
    ])
    func oldQuickTimeStillRecognised(_ text: String) throws {
        #expect(try MediaFormat.sniff(Array(text.utf8)).get() == .mov)
    }

    @Test func renditionPlans() {
        #expect(RenditionPlan(format: .mp4, videoCodec: "h264", audioCodec: "aac") == .none)
        #expect(RenditionPlan(format: .mp4, videoCodec: "h264", audioCodec: nil) == .none)
        #expect(RenditionPlan(format: .mp4, videoCodec: "hevc", audioCodec: "aac") == .transcode)
        #expect(RenditionPlan(format: .mov, videoCodec: "h264", audioCodec: "aac") == .remux)
        #expect(RenditionPlan(format: .mov, videoCodec: "hevc", audioCodec: "aac") == .transcode)
        #expect(RenditionPlan(format: .mov, videoCodec: "h264", audioCodec: "pcm_s16le") == .transcode)
        #expect(RenditionPlan(format: .webm, videoCodec: "vp9", audioCodec: "opus") == .none)
        #expect(RenditionPlan(format: .webm, videoCodec: "h264", audioCodec: nil) == .transcode)
    }
}

@Suite struct VideoProbeTests {
    let seoul = TimeZone(identifier: "Asia/Seoul")!

    /// ffprobe's answer for a file its `mov` demuxer read (the one `MediaInput` names for MP4 and QuickTime).
    func answer(streams: String, format: String) -> Data {
        Data(#"{"streams": [\#(streams)], "format": {"format_name": "mov,mp4,m4a,3gp,3g2,mj2", \#(format)}}"#.utf8)
    }

    @Test func iphoneClip() throws {
        let json = answer(
            streams: #"""
                {"codec_type": "video", "codec_name": "hevc", "width": 1920, "height": 1080,
                 "side_data_list": [{"side_data_type": "Display Matrix", "displaymatrix": "…", "rotation": -90}],
                 "tags": {"creation_time": "2026-05-05T05:30:12.000000Z"}},
                {"codec_type": "audio", "codec_name": "aac"},
                {"codec_type": "video", "codec_name": "mjpeg", "width": 320, "height": 240, "disposition": {"attached_pic": 1}}
                """#,
            format: #"""
                "duration": "23.456", "tags": {"com.apple.quicktime.creationdate": "2026-05-05T14:30:12+0900",
                "com.apple.quicktime.location.ISO6709": "+37.5665+126.9780+012.000/", "com.apple.quicktime.make": "Apple",
                "com.apple.quicktime.model": "iPhone 15 Pro\u0000"}
                """#)
        let info = try VideoProbe.read(json, format: .mov, limits: VideoLimits(), zone: seoul)
        #expect(info.width == 1080 && info.height == 1920 && info.rotation == 270)
        #expect(info.durationMilliseconds == 23456)
        #expect(info.videoCodec == "hevc" && info.audioCodec == "aac")
        #expect(info.taken == CaptureTime(local: "2026-05-05T14:30:12", offset: "+09:00"))
        #expect(info.latitude == 37.5665 && info.longitude == 126.978)
        #expect(info.cameraMake == "Apple" && info.cameraModel == "iPhone 15 Pro")
        #expect(info.rendition == .transcode)
    }

    @Test func utcCreationTimeOnTheFamilysClock() throws {
        let json = answer(
            streams: #"{"codec_type": "video", "codec_name": "h264", "width": 640, "height": 360}"#,
            format: #""duration": "3.0", "tags": {"creation_time": "2026-11-21T16:15:30.000000Z"}"#)
        let info = try VideoProbe.read(json, format: .mp4, limits: VideoLimits(), zone: seoul)
        #expect(info.taken == CaptureTime(local: "2026-11-22T01:15:30", offset: "+09:00"))  // the next day in Seoul
        #expect(info.audioCodec == nil && info.rendition == .none)
    }

    @Test(arguments: ["1904-01-01T00:00:00.000000Z", "1970-01-01T00:00:00Z", "2026-11-21 16:15:30+0900", "yesterday", "２０２６-11-21T16:15:30Z"])
    func capturedTimesNotTrusted(_ text: String) {
        #expect(VideoProbe.captureTime(["creation_time": text], zone: seoul) == nil)
    }

    @Test(arguments: [
        (#"{}"#, "it is not the MP4 container it starts like"),
        (#"{"streams": [{"codec_type": "video", "codec_name": "h264", "width": 64, "height": 64}], "format": {"format_name": "hls", "duration": "1"}}"#,
         "it is not the MP4 container it starts like"),
        (#"{"streams": [{"codec_type": "video", "codec_name": "h264", "width": 64, "height": 64}], "format": {"format_name": "dash", "duration": "1"}}"#,
         "it is not the MP4 container it starts like"),
        (#"{"streams": [{"codec_type": "audio", "codec_name": "aac"}], "format": {"format_name": "mov,mp4,m4a,3gp,3g2,mj2", "duration": "1"}}"#, "the file holds no video picture"),
        (#"{"streams": [{"codec_type": "video", "codec_name": "h264"}], "format": {"format_name": "mov,mp4,m4a,3gp,3g2,mj2", "duration": "1"}}"#, "the video's picture size is missing"),
        (#"{"streams": [{"codec_type": "video", "codec_name": "h264", "width": 64, "height": 64}], "format": {"format_name": "mov,mp4,m4a,3gp,3g2,mj2", "duration": "nan"}}"#,
         "the video's length could not be read"),
        (#"{"streams": [{"codec_type": "video", "codec_name": "h264", "width": 64, "height": 64}], "format": {"format_name": "mov,mp4,m4a,3gp,3g2,mj2", "duration": "-3"}}"#,
         "the video's length could not be read"),
    ])
    func nonsenseRefusedByName(_ json: String, _ why: String) {
        #expect(throws: PhotoError.corruptVideo(why)) { try VideoProbe.read(Data(json.utf8), format: .mp4, limits: VideoLimits(), zone: seoul) }
    }

    @Test func limits() {
        let large = answer(streams: #"{"codec_type": "video", "codec_name": "h264", "width": 10000, "height": 64}"#, format: #""duration": "1""#)
        #expect(throws: PhotoError.tooLarge("the video is 10000×64 pixels, more than 8192 on a side")) {
            try VideoProbe.read(large, format: .mp4, limits: VideoLimits(), zone: seoul)
        }
        let long = answer(streams: #"{"codec_type": "video", "codec_name": "h264", "width": 64, "height": 64}"#, format: #""duration": "960""#)
        #expect(throws: PhotoError.tooLarge("the video runs 16:00, longer than the 15:00 limit")) {
            try VideoProbe.read(long, format: .mp4, limits: VideoLimits(), zone: seoul)
        }
        // Beyond any camera: a damaged or crafted header (422), not a clip over the owner's limits (413).
        let huge = answer(streams: #"{"codec_type": "video", "codec_name": "h264", "width": 100000, "height": 64}"#, format: #""duration": "1""#)
        #expect(throws: PhotoError.corruptVideo("it claims a picture of 100000×64 pixels")) {
            try VideoProbe.read(huge, format: .mp4, limits: VideoLimits(), zone: seoul)
        }
        let endless = answer(streams: #"{"codec_type": "video", "codec_name": "h264", "width": 64, "height": 64}"#, format: #""duration": "1e300""#)
        #expect(throws: PhotoError.corruptVideo("it claims to run 99:59:59")) {
            try VideoProbe.read(endless, format: .mp4, limits: VideoLimits(), zone: seoul)
        }
        #expect(throws: PhotoError.corrupt("ffprobe's answer could not be read")) {
            try VideoProbe.read(Data("{\"streams\": 3}".utf8), format: .mp4, limits: VideoLimits(), zone: seoul)
        }
    }

    static let turns: [(Double?, Int)] = [(nil, 0), (90, 90), (-90, 270), (180, 180), (-180, 180), (450, 90), (45, 0), (.nan, 0), (1e300, 0)]

    @Test(arguments: turns)
    func rotations(_ degrees: Double?, _ expected: Int) {
        #expect(VideoProbe.normalised(rotation: degrees) == expected)
    }

    @Test func clockLengths() {
        #expect(Duration.clock(23.4) == "0:23")
        #expect(Duration.clock(725) == "12:05")
        #expect(Duration.clock(3723) == "1:02:03")
        #expect(Duration.clock(.infinity) == "0:00")
        #expect(Duration.clock(-5) == "0:00")
    }
}

@Suite struct ISO6709Tests {
    static let minutes: Double = 37 + 33.99 / 60, minutesEast: Double = 126 + 58.68 / 60
    static let seconds: Double = 37 + 33.0 / 60 + 59.4 / 3600, secondsEast: Double = 126 + 58.0 / 60 + 52.8 / 3600
    static let examples: [(String, Double, Double)] = [
        ("+37.5665+126.9780+012.000/", 37.5665, 126.978), ("+37.5665+126.9780/", 37.5665, 126.978),
        ("-33.8688+151.2093/", -33.8688, 151.2093), ("+40.7128-074.0060+010.5/", 40.7128, -74.006),
        ("+3733.99+12658.68/", minutes, minutesEast), ("+373359.4+1265852.8+20CRSWGS_84/", seconds, secondsEast),
    ]

    @Test(arguments: examples)
    func positions(_ text: String, _ latitude: Double, _ longitude: Double) throws {
        let point = try #require(ISO6709.parse(text))
        #expect(abs(point.latitude - latitude) < 1e-9 && abs(point.longitude - longitude) < 1e-9)
    }

    @Test(arguments: ["", "/", "+91.0+000.0/", "+37.5+181.0/", "+0000+00000/", "+37.5", "37.5+126.9/", "+37.5.1+126.9/", "+3775.0+12658.0/",
                      "+37.5665+126.9780\u{0}", "+３７.5+126.9/"])
    func nonsense(_ text: String) {
        #expect(ISO6709.parse(text) == nil)
    }
}

/// Real clips made by ffmpeg, read by ffprobe.
@Suite(.serialized) struct VideoInspectorTests {
    let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-video-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// ffmpeg run by the test itself, to make clips from its test sources (ToolRun reads only a pinned clip).
    func ffmpeg(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-nostdin", "-v", "error", "-y"] + arguments
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    func input(_ url: URL, _ format: MediaFormat) -> MediaInput { MediaInput(path: url.path, format: format) }

    func clip(_ name: String, seconds: Int = 2, extra: [String] = []) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try ffmpeg(["-f", "lavfi", "-i", "testsrc=size=320x240:rate=25:duration=\(seconds)", "-f", "lavfi", "-i", "sine=duration=\(seconds)",
                    "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest"] + extra + [url.path])
        return url
    }

    func size(_ url: URL) -> Int { (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0 ?? 0 }

    @Test func readsAClipAndMakesItsRenditionAndPoster() throws {
        let source = try clip("in.mov", extra: ["-f", "mov"])
        let info = try VideoInspector.inspect(source, format: .mov, byteCount: size(source), limits: VideoLimits(), zone: .current)
        #expect(info.width == 320 && info.height == 240 && info.videoCodec == "h264" && info.rendition == .remux)
        #expect(abs(info.durationMilliseconds - 2000) < 100)

        let output = folder.appendingPathComponent("out.mp4")
        let progress = ProgressBox()
        try VideoRendition.make(.transcode, clip: input(source, .mov), durationMilliseconds: info.durationMilliseconds, output: output) { progress.add($0) }
        let made = try VideoInspector.inspect(output, format: .mp4, byteCount: size(output), limits: VideoLimits(), zone: .current)
        #expect(made.videoCodec == "h264" && made.audioCodec == "aac" && made.rendition == .none)
        #expect(progress.values.last ?? 0 > 0.9)

        let poster = try VideoRendition.thumbnail(
            of: input(source, .mov), durationMilliseconds: info.durationMilliseconds, size: .small, poster: folder.appendingPathComponent("p.jpg"))
        #expect(Array(poster.prefix(3)) == [0xFF, 0xD8, 0xFF])
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("p.jpg").path))
    }

    @Test func aRenditionNeverEnlargesAndKeepsTheShortSideAt1080() throws {
        let tall = folder.appendingPathComponent("tall.mp4")
        try ffmpeg(["-f", "lavfi", "-i", "testsrc=size=1440x2560:rate=5:duration=1", "-c:v", "libx264", "-preset", "ultrafast",
                    "-pix_fmt", "yuv420p", tall.path])
        let output = folder.appendingPathComponent("tall-web.mp4")
        try VideoRendition.make(.transcode, clip: input(tall, .mp4), durationMilliseconds: 1000, output: output) { _ in }
        let made = try VideoInspector.inspect(output, format: .mp4, byteCount: size(output), limits: VideoLimits(), zone: .current)
        #expect(made.width == 1080 && made.height == 1920)
    }

    /// A share link's copy of a clip that plays as it is keeps its streams and loses every tag (issue 33).
    @Test(arguments: [("tagged.mp4", MediaFormat.mp4), ("tagged.webm", .webm)])
    func aStrippedCopyHasNoTags(_ name: String, _ format: MediaFormat) throws {
        let tagged = folder.appendingPathComponent(name)
        let codecs = format == .webm ? ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-c:a", "libopus"] : ["-c:v", "libx264", "-c:a", "aac"]
        try ffmpeg(["-f", "lavfi", "-i", "testsrc=size=64x48:rate=5:duration=1", "-f", "lavfi", "-i", "sine=duration=1", "-shortest"] + codecs
                   + ["-metadata", "location=+37.5665+126.9780/", "-metadata", "title=우리 집 앞", "-metadata", "comment=secret note",
                      "-metadata:s:v", "handler_name=GPS +37.5665", "-metadata:s:a", "title=audio title", tagged.path])
        let stripped = folder.appendingPathComponent("stripped-" + name)
        try VideoRendition.strippedCopy(of: input(tagged, format), durationMilliseconds: 1000, output: stripped)
        let bytes = try Data(contentsOf: stripped)
        for secret in ["37.5665", "secret note", "우리 집 앞", "audio title"] {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) is still in the copy")
        }
        let made = try VideoInspector.inspect(stripped, format: format, byteCount: bytes.count, limits: VideoLimits(), zone: .current)
        #expect(made.latitude == nil && made.width == 64)
    }

    @Test func cutShortIsRefused() throws {
        for (name, extra) in [("cut.mp4", [String]()), ("cut-faststart.mp4", ["-movflags", "+faststart"])] {
            let whole = try clip("whole-" + name, seconds: 4, extra: extra)
            let data = try Data(contentsOf: whole)
            let cut = folder.appendingPathComponent(name)
            try data.prefix(data.count * 6 / 10).write(to: cut)
            #expect(throws: PhotoError.self) {
                try VideoInspector.inspect(cut, format: .mp4, byteCount: self.size(cut), limits: VideoLimits(), zone: .current)
            }
        }
    }

    @Test func tooLongForTheLimit() throws {
        let source = try clip("long.mp4", seconds: 3)
        #expect(throws: PhotoError.tooLarge("the video runs 0:03, longer than the 0:02 limit")) {
            try VideoInspector.inspect(source, format: .mp4, byteCount: self.size(source), limits: VideoLimits(maxSeconds: 2), zone: .current)
        }
    }

    @Test func aToolOverItsTimeIsKilled() throws {
        let source = try clip("ten.mp4", seconds: 10)
        let started = Date()
        let outcome = try ToolRun.run(
            .ffmpeg, ["-nostdin", "-v", "error", "-re"], input: input(source, .mp4), outputs: ["-f", "null", "-"], memory: 4 << 30, timeout: 1)
        #expect(outcome.status == nil && outcome.timedOut)
        #expect(Date().timeIntervalSince(started) < 9)
    }

    /// ffprobe and ffmpeg read one pinned clip: a second input, or a format named before it, is refused unrun.
    @Test(arguments: [
        (["-f", "hls"], [String]()), (["-i", "file:/etc/passwd"], []), ([], ["-i", "concat:a.mp4|b.mp4", "-f", "null", "-"]),
    ])
    func onlyThePinnedClipIsRead(_ options: [String], _ outputs: [String]) {
        #expect(throws: PhotoError.internal("ffmpeg may read only a pinned clip")) {
            try ToolRun.run(.ffmpeg, options, input: input(folder, .mp4), outputs: outputs, memory: 1 << 30, timeout: 5)
        }
    }
}

final class ProgressBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Double] = []
    var values: [Double] { lock.withLock { stored } }
    func add(_ value: Double) { lock.withLock { stored.append(value) } }
}
