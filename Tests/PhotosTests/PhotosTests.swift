import Diary
import Foundation
import Testing

@testable import Photos

@Suite struct FormatTests {
    @Test(arguments: [
        ([0xFF, 0xD8, 0xFF, 0xE0], MediaFormat.jpeg), ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], .png),
        (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), .webp), (Array("\u{0}\u{0}\u{0}\u{18}ftypheic\u{0}\u{0}".utf8), .heif),
    ])
    func recognisedByContent(_ bytes: [UInt8], _ format: MediaFormat) throws {
        #expect(try MediaFormat.sniff(bytes).get() == format)
    }

    @Test(arguments: [
        (Array("GIF89a".utf8), "a GIF image"), (Array("%PDF-1.7".utf8), "a PDF document"), (Array("hello, world".utf8), "text"),
        (Array("\u{0}\u{0}\u{0}\u{18}ftypavif".utf8), "an AVIF image"), ([], "an empty file"), ([0x00, 0x01, 0xFE, 0x80], "unrecognised binary data"),
    ])
    func refusedNamingWhatItIs(_ bytes: [UInt8], _ detected: String) {
        #expect(throws: PhotoError.unsupported(detected: detected)) { try MediaFormat.sniff(bytes).get() }
    }
}

@Suite struct InspectionTests {
    @Test func exifIsRead() throws {
        let info = try ImageInspector.inspect(try Fixtures.jpegWithExif(orientation: 6))
        #expect(info.format == .jpeg)
        #expect(info.orientation == 6)
        #expect(info.width == 400 && info.height == 600)  // displayed upright: rotated a quarter turn
        #expect(info.taken?.iso == "2024-02-10T09:30:15+09:00")
        #expect(abs((info.latitude ?? 0) + 37.5665) < 1e-4)  // S is negative
        #expect(abs((info.longitude ?? 0) - 126.978) < 1e-4)
        #expect(info.cameraMake == "Apple" && info.cameraModel == "iPhone 15 Pro")
    }

    @Test(arguments: ["a.png", "b.webp", "c.heic"])
    func otherFormats(_ name: String) throws {
        let info = try ImageInspector.inspect(try Fixtures.image(name, width: 300, height: 200))
        #expect(info.width == 300 && info.height == 200 && info.taken == nil)
    }

    @Test func decompressionBombsAreRefusedBeforeDecoding() throws {
        let bomb = try Fixtures.pngDeclaring(width: 60_000, height: 60_000)
        #expect(throws: PhotoError.tooLarge("the photo is 60000×60000 pixels, more than the 120 megapixel limit")) {
            try ImageInspector.inspect(bomb)
        }
    }

    @Test func renamedTextAndTruncatedImages() throws {
        let text = try Fixtures.write("notes.jpg", Array("다음 주 병원 예약\n".utf8))
        #expect(throws: PhotoError.unsupported(detected: "text")) { try ImageInspector.inspect(text) }
        let whole = try Data(contentsOf: try Fixtures.image("whole.jpg", width: 800, height: 600))
        let truncated = try Fixtures.write("truncated.jpg", Array(whole.prefix(whole.count / 3)))
        #expect(throws: PhotoError.self) { try Thumbnailer.thumbnail(of: truncated, size: .small) }
        #expect(throws: PhotoError.self) { try ImageInspector.inspect(try Fixtures.write("head.jpg", [0xFF, 0xD8, 0xFF])) }
    }

    @Test func byteLimit() throws {
        let file = try Fixtures.image("limit.jpg")
        #expect(throws: PhotoError.self) { try ImageInspector.inspect(file, limits: PhotoLimits(maxBytes: 100)) }
    }
}

/// A photo is opened by the loader of the format its bytes say and by no other: libvips' own search for a loader
/// asked each it has — OpenSlide's first, whose detection opened the file dozens of times, with libtiff and with
/// SQLite — five times for every photo checked. The kernel counts the opens (inotify).
@Suite struct PinnedLoaderTests {
    @Test(arguments: ["pinned.jpg", "pinned.png"])
    func aCheckOpensThePhotoAFewTimesOnly(_ name: String) throws {
        let original = try Fixtures.image(name, width: 1200, height: 900)
        let opens = try Self.opens(of: original) {
            _ = try ImageInspector.inspect(original)
            _ = try Thumbnailer.thumbnail(of: original, size: .small)
        }
        // Sniffing, the loader's test, the header, the decode: 11 opens of the JPEG, 10 of the PNG (59 and 27 when
        // libvips searched for the loader).
        #expect((1...15).contains(opens), "\(name) opened \(opens) times")
    }

    /// How many times `body` opens `file`.
    static func opens(of file: URL, _ body: () throws -> Void) throws -> Int {
        let watcher = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard watcher >= 0 else { throw CocoaError(.fileReadUnknown) }
        defer { close(watcher) }
        // Closes are watched too: the kernel merges an event into the one before it when they are the same, so only
        // opens with no close between them (nested) count once.
        guard inotify_add_watch(watcher, file.path, UInt32(IN_OPEN | IN_CLOSE_NOWRITE)) >= 0 else { throw CocoaError(.fileReadUnknown) }
        try body()
        var count = 0
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let length = buffer.withUnsafeMutableBytes { read(watcher, $0.baseAddress, $0.count) }
            guard length > 0 else { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= length {
                let event = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
                if event.mask & UInt32(IN_OPEN) != 0 { count += 1 }
                offset += MemoryLayout<inotify_event>.size + Int(event.len)
            }
        }
        return count
    }
}

@Suite struct ThumbnailTests {
    @Test func thumbnailsAreUprightSRGBAndCarryNoMetadata() throws {
        let original = try Fixtures.jpegWithExif(orientation: 6)
        let data = try Thumbnailer.thumbnail(of: original, size: .small)
        let file = Fixtures.folder.appendingPathComponent("thumb-\(UUID().uuidString).jpg")
        try data.write(to: file)
        let header = try Fixtures.run("vipsheader", "-a", file.path)
        #expect(header.contains("width: 213") && header.contains("height: 320"))  // 400×600 displayed, fitted in 320
        #expect(!header.contains("exif-") && !header.contains("GPS"))
        #expect(try ImageInspector.inspect(file).taken == nil)
        // Decoded at half size (1200×900 into 320 px), the same turn.
        let large = try Thumbnailer.thumbnail(of: try Fixtures.jpegWithExif(orientation: 6, width: 1200, height: 900), size: .small)
        try large.write(to: file)
        #expect(try Fixtures.run("vipsheader", file.path).contains("240x320"))
    }

    /// Debian 12's liborc frees compiled code without the lock it allocates under: thumbnails made on several threads
    /// at once crashed the process now and then (a Day One import in twenty, in `orc_code_allocate_codemem`). libvips
    /// runs no run-time compiled code, and thumbnails resized on four threads at once all come out.
    @Test func thumbnailsMadeOnSeveralThreadsAtOnceRunNoCompiledCode() throws {
        #expect(!Vips.runsCompiledVectorCode)
        let original = try Fixtures.image("resized.jpg", width: 700, height: 500)  // reduced, not shrunk on load
        let made = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<100 where (try? Thumbnailer.thumbnail(of: original, size: .small)) != nil { made.add() }
        }
        #expect(made.value == 400)
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    /// A JPEG is decoded smaller only while 1.5× is left to the resize: the import bench's 1200×900 photos at half
    /// size for the small box, a 12 MP phone photo at an eighth, and neither enlarged nor shrunk past the box.
    @Test func jpegShrinkOnLoadLeavesAFactorToTheResize() {
        #expect(Vips.jpegShrink(width: 1200, height: 900, box: (320, 320)) == 2)
        #expect(Vips.jpegShrink(width: 900, height: 1200, box: (320, 320)) == 2)
        #expect(Vips.jpegShrink(width: 4032, height: 3024, box: (320, 320)) == 8)
        #expect(Vips.jpegShrink(width: 4032, height: 3024, box: (1600, 1600)) == 1)  // 2.52×: 1.26× would be left
        #expect(Vips.jpegShrink(width: 6000, height: 4000, box: (1600, 1600)) == 2)
        #expect(Vips.jpegShrink(width: 800, height: 600, box: (320, 320)) == 1)  // 2.5×
        #expect(Vips.jpegShrink(width: 200, height: 100, box: (320, 320)) == 1)
        #expect(Vips.jpegShrink(width: 0, height: 0, box: (320, 320)) == 1)
        #expect(Vips.jpegShrink(width: 60_000, height: 60_000, box: (320, 320)) == 8)
        // A 1.5× remainder is taken exactly: 960 / 320 = 3 = 2 × 1.5.
        #expect(Vips.jpegShrink(width: 960, height: 960, box: (320, 320)) == 2)
    }

    /// The small thumbnail of a JPEG decoded at half size is the picture libvips makes of the whole decode: the same
    /// size, and on a zone plate — rings up to the finest a photo can hold, where two ways of shrinking differ most —
    /// a mean difference of a few levels in 255 (2.8 here; the aliasing rings of both are alike).
    @Test func shrunkOnLoadThumbnailMatchesTheWholeDecode() throws {
        let folder = Fixtures.folder.appendingPathComponent("zone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func file(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Fixtures.run("vips", "zone", file("zone.v"), "1200", "900")
        try Fixtures.run("vips", "linear", file("zone.v"), file("grey.v"), "120", "128", "--uchar")
        try Fixtures.run("vips", "colourspace", file("grey.v"), file("colour.v"), "srgb")
        try Fixtures.run("vips", "copy", file("colour.v"), file("zone.jpg") + "[Q=90]")
        #expect(Vips.jpegShrink(width: 1200, height: 900, box: (320, 320)) == 2)
        try Thumbnailer.thumbnail(of: folder.appendingPathComponent("zone.jpg"), size: .small).write(to: folder.appendingPathComponent("ours.jpg"))
        try Fixtures.run("vipsthumbnail", file("zone.jpg"), "--size", "320x320", "-o", file("theirs.jpg") + "[Q=80]")
        #expect(try Fixtures.run("vipsheader", file("ours.jpg")).contains("320x240 uchar, 3 bands, srgb"))
        try Fixtures.run("vips", "subtract", file("ours.jpg"), file("theirs.jpg"), file("difference.v"))
        try Fixtures.run("vips", "abs", file("difference.v"), file("distance.v"))
        let mean = try Fixtures.run("vips", "avg", file("distance.v")).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect((Double(mean) ?? .infinity) < 5, "mean absolute difference \(mean)")
    }

    @Test func squareCropForProfiles() throws {
        let data = try Thumbnailer.thumbnail(of: try Fixtures.image("wide.png", width: 900, height: 300), size: .square)
        let file = Fixtures.folder.appendingPathComponent("square.jpg")
        try data.write(to: file)
        let info = try ImageInspector.inspect(file)
        #expect(info.width == 300 && info.height == 300)  // never enlarged: the short side is 300
    }
}

@Suite struct StorageTests {
    static func folder() throws -> PhotoFolder {
        try PhotoFolder(dataFolder: Fixtures.folder.appendingPathComponent("data-\(UUID().uuidString)"))
    }

    static func staged(_ bytes: Data, in storage: PhotoFolder) throws -> UploadWriter {
        let writer = try storage.stage(limits: .standard)
        try bytes.withUnsafeBytes { try writer.write(untyped: $0) }
        return writer
    }

    @Test func contentAddressedAndStoredOnce() async throws {
        let storage = try Self.folder()
        let bytes = try Data(contentsOf: try Fixtures.image("same.jpg"))
        var isNew: [Bool] = []
        for _ in 0..<2 {
            let writer = try Self.staged(bytes, in: storage)
            isNew.append(try storage.putOriginal(writer.url, sha256: try writer.finish(), format: .jpeg))
        }
        #expect(isNew == [true, false])
        let stored = try #require(storage.listOriginals().first)
        #expect(storage.listOriginals().count == 1)
        let file = try #require(try storage.openOriginal(sha256: stored.sha256, format: .jpeg))
        var read = Data()
        try await file.read(0...(file.byteCount - 1), chunkSize: 1000) { read += $0 }
        #expect(read == bytes)  // byte for byte
        var middle = Data()
        try await file.read(10...19, chunkSize: 3) { middle += $0 }
        #expect(middle == bytes[10...19])
        #expect(try FileManager.default.contentsOfDirectory(atPath: storage.root.appendingPathComponent("incoming").path).isEmpty)
        storage.delete(sha256: stored.sha256, format: .jpeg)
        #expect(try storage.openOriginal(sha256: stored.sha256, format: .jpeg) == nil)
        #expect(storage.listOriginals().isEmpty)
    }

    @Test func uploadsStopAtTheLimitAndLeaveNothing() throws {
        let storage = try Self.folder()
        let writer = try storage.stage(limits: PhotoLimits(maxBytes: 10))
        #expect(throws: PhotoError.self) {
            try [UInt8](repeating: 1, count: 11).withUnsafeBytes { (buffer: UnsafeRawBufferPointer) throws -> Void in try writer.write(buffer) }
        }
        writer.abandon()
        #expect(try FileManager.default.contentsOfDirectory(atPath: storage.root.appendingPathComponent("incoming").path).isEmpty)
    }
}

/// The one intake: check, place, settle.
@Suite struct IntakeTests {
    @Test func checkedPhotosArePlacedAndUnreferencedOnesSettledAway() async throws {
        let storage = try StorageTests.folder()
        let family = FamilyID()
        let intake = try PhotoIntake(storage: storage, family: family, now: Date())
        let same = try Data(contentsOf: try Fixtures.image("same.jpg"))
        let first = try intake.take(same)
        let again = try intake.take(same)
        #expect(first == again)  // the same bytes are one photo
        let other = try intake.take(try Data(contentsOf: try Fixtures.jpegWithExif(orientation: 6)))
        #expect(other.takenAt == "2024-02-10T09:30:15+09:00" && other.familyID == family)
        #expect(intake.photos.count == 2)
        #expect(storage.listOriginals().isEmpty)  // nothing stored before `place`
        try await intake.place()
        #expect(Set(storage.listOriginals().map(\.sha256)) == [first.sha256, other.sha256])
        #expect(try storage.openThumbnail(sha256: first.sha256, size: .small) != nil)
        await intake.settle(referenced: [first.sha256])
        #expect(storage.listOriginals().map(\.sha256) == [first.sha256])
    }

    @Test func unknownReferencesDeleteNothingAndDryRunsStoreNothing() async throws {
        let storage = try StorageTests.folder()
        let intake = try PhotoIntake(storage: storage, family: FamilyID(), now: Date())
        _ = try intake.take(try Data(contentsOf: try Fixtures.image("same.jpg")))
        try await intake.place()
        await intake.settle(referenced: nil)
        #expect(storage.listOriginals().count == 1)

        let dry = try StorageTests.folder()
        let trial = try PhotoIntake(storage: dry, family: FamilyID(), now: Date(), dryRun: true)
        _ = try trial.take(try Data(contentsOf: try Fixtures.image("same.jpg")))
        try await trial.place()
        #expect(dry.listOriginals().isEmpty && trial.photos.count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dry.root.appendingPathComponent("incoming").path).isEmpty)
    }

    /// Several staged files checked at once (an import's photos) answer as one by one would, in the order given:
    /// the same bytes one photo (also across calls), a file that is no photo refused with its reason, each answer at
    /// its own file's place whatever thread examined it.
    @Test func filesCheckedTogetherAnswerInTheirOrder() async throws {
        let storage = try StorageTests.folder()
        let intake = try PhotoIntake(storage: storage, family: FamilyID(), now: Date())
        // Fixtures are noise, new at each call, and their names shared with other tests: each made once, here.
        let exif = try Data(contentsOf: try Fixtures.jpegWithExif(orientation: 6))
        let earlier = try intake.take(exif)
        let same = try Data(contentsOf: try Fixtures.image("together-same.jpg"))
        let files: [Data] = [
            same, Data("not a photo at all".utf8), try Data(contentsOf: try Fixtures.image("together-wide.jpg", width: 900, height: 300)), same,
            exif, try Data(contentsOf: try Fixtures.image("together-tall.png", width: 200, height: 700)),
        ]
        let staged = try files.map { bytes in
            let upload = try intake.stage()
            try bytes.withUnsafeBytes { try upload.write(untyped: $0) }
            return PhotoIntake.Staged(upload: upload)
        }
        let answers = intake.check(staged, threads: 3)
        #expect(answers.count == 6)
        let photos = answers.map { try? $0.get() }
        #expect(photos[0] != nil && photos[0] == photos[3])
        if case .failure(let error) = answers[1] { #expect(error.refusalStatus == 415) } else { Issue.record("not a photo, yet taken") }
        #expect(photos[2]?.width == 900 && photos[5]?.height == 700)
        #expect(photos[4] == earlier)
        #expect(intake.photos.map(\.id) == [earlier.id, photos[0]?.id, photos[2]?.id, photos[5]?.id].compactMap { $0 })
        try await intake.place()
        #expect(storage.listOriginals().count == 4)
        #expect(try FileManager.default.contentsOfDirectory(atPath: storage.root.appendingPathComponent("incoming").path).isEmpty)
    }

    /// A checking line (files handed as they are staged, checked meanwhile, chunk by chunk) answers what one `check`
    /// of them all does, whatever chunk a file fell in; abandoned, it drops what waits and leaves no staged file.
    @Test func aCheckingLineAnswersAsOneCheck() async throws {
        let same = try Data(contentsOf: try Fixtures.image("line-same.jpg"))
        let files: [Data] = [
            same, Data("not a photo at all".utf8), try Data(contentsOf: try Fixtures.image("line-wide.jpg", width: 900, height: 300)),
            same, try Data(contentsOf: try Fixtures.image("line-tall.png", width: 200, height: 700)), same,
            try Data(contentsOf: try Fixtures.image("line-small.jpg", width: 90, height: 60)),
        ]
        func staged(_ intake: PhotoIntake) throws -> [PhotoIntake.Staged] {
            try files.map { bytes in
                let upload = try intake.stage()
                try bytes.withUnsafeBytes { try upload.write(untyped: $0) }
                return PhotoIntake.Staged(upload: upload)
            }
        }
        func outline(_ answers: [Result<Photo, PhotoError>]) -> [String] {
            answers.map { answer in
                switch answer {
                case .success(let photo): "\(photo.sha256) \(photo.width)×\(photo.height)"
                case .failure(let error): "refused \(error.refusalStatus ?? 0)"
                }
            }
        }
        let alone = try PhotoIntake(storage: try StorageTests.folder(), family: FamilyID(), now: Date())
        let expected = outline(alone.check(try staged(alone)))
        for chunk in [1, 2, 3, 16] {
            let storage = try StorageTests.folder()
            let intake = try PhotoIntake(storage: storage, family: FamilyID(), now: Date())
            let line = intake.checkAhead(chunk: chunk)
            try staged(intake).forEach(line.add)
            #expect(outline(line.finish()) == expected, "chunk \(chunk)")
            #expect(intake.photos.count == 4)
            try await intake.place()
            #expect(storage.listOriginals().count == 4)
            #expect(try FileManager.default.contentsOfDirectory(atPath: storage.root.appendingPathComponent("incoming").path).isEmpty)
        }
        let storage = try StorageTests.folder()
        let intake = try PhotoIntake(storage: storage, family: FamilyID(), now: Date())
        let line = intake.checkAhead(chunk: 100)
        try staged(intake).forEach(line.add)
        line.abandon()
        #expect(intake.photos.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: storage.root.appendingPathComponent("incoming").path).isEmpty)
    }

    /// The line stores what it checked while it goes on (storing waits for the disk, checking for the processor), so
    /// that `place` has little left to do; an import that fails after leaves none of those files (`settle`).
    @Test func aCheckingLineStoresWhatItCheckedAndAFailedImportLeavesNothing() async throws {
        let storage = try StorageTests.folder()
        let intake = try PhotoIntake(storage: storage, family: FamilyID(), now: Date())
        let line = intake.checkAhead(chunk: 1)
        for (name, width) in [("ahead-1.jpg", 640), ("ahead-2.jpg", 500), ("ahead-3.png", 400)] {
            let upload = try intake.stage()
            try Data(contentsOf: try Fixtures.image(name, width: width)).withUnsafeBytes { try upload.write(untyped: $0) }
            line.add(PhotoIntake.Staged(upload: upload))
        }
        #expect(line.finish().allSatisfy { (try? $0.get()) != nil })
        // Awaited, not timed: in a loaded test run the storing batches waited more than 30 s for a thread.
        #expect(await intake.storedAhead().count == 3, "stored before place was asked")
        #expect(storage.listOriginals().count == 3)
        await intake.settle(referenced: [])  // the rows were not written
        #expect(storage.listOriginals().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: storage.root.appendingPathComponent("incoming").path).isEmpty)
    }

    @Test func aFileThatIsNoPhotoIsRefusedAndLeavesNothing() async throws {
        let storage = try StorageTests.folder()
        let intake = try PhotoIntake(storage: storage, family: FamilyID(), now: Date())
        #expect(throws: PhotoError.self) { try intake.take(Data("not a photo at all".utf8)) }
        try await intake.place()
        #expect(storage.listOriginals().isEmpty && intake.photos.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: storage.root.appendingPathComponent("incoming").path).isEmpty)
    }
}

/// Capture times are ASCII digits in EXIF's shape or nothing (issue 17: Arabic-Indic digits passed `\d`, then the
/// database's CHECK refused the whole upload with a 500).
@Suite struct CaptureTimeTests {
    @Test(arguments: [
        ("2024-02-10T09:30:15", "+09:00", true),
        ("٢٠٢٤-٠٢-١٠T٠٩:٣٠:١٥", nil, false),
        ("2024-02-10T09:30:1٥", nil, false),
        ("２０２４-02-10T09:30:15", nil, false),
        ("2024-02-10T09:30:15\u{0301}", nil, false),
        ("0000-00-00T00:00:00", nil, false),
        ("2024-02-10 09:30:15", nil, false),
    ] as [(String, String?, Bool)])
    func onlyASCIIDigits(_ local: String, _ offset: String?, _ accepted: Bool) {
        #expect((CaptureTime(local: local, offset: offset) != nil) == accepted)
    }

    @Test func offsetsInOtherDigitsAreLeftOut() throws {
        #expect(try #require(CaptureTime(local: "2024-02-10T09:30:15", offset: "+٠٩:٠٠")).offset == nil)
        #expect(try #require(CaptureTime(local: "2024-02-10T09:30:15", offset: "-05:30")).offset == "-05:30")
    }
}
