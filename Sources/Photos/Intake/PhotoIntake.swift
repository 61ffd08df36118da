import Diary
import Foundation

/// The one way photos come in — uploads, profile photos, visit records and every importer. Bytes are streamed to
/// the storage's staging area (`stage`), then each file is checked (`check`, or `take` for bytes in hand): hashed,
/// inspected, and given its small thumbnail, which proves it decodes. `place` then stores the checked files and their
/// thumbnails at their content addresses — before the caller's transaction writes their rows — and `settle`, after
/// that transaction, committed or not, deletes the files this intake placed that no row refers to (a failed
/// request's or import's, or photos of records that were already there). A dry run checks and stores nothing.
/// Large thumbnails are made later by the server's worker (the rows say 'pending').
///
/// Checking decodes images: callers run it off the request threads (an upload on NIO's thread pool, an import on
/// its reading thread). One intake is used by one task or thread at a time, handed from one to the next:
/// `@unchecked Sendable` only for that hand-over — and for `stage`, which touches only constants, so an importer
/// stages the next files while its checking line (`checkAhead`) checks the last.
public final class PhotoIntake: @unchecked Sendable {
    public let storage: any PhotoStorage
    let family: FamilyID
    let now: Date
    let dryRun: Bool
    let limits: PhotoLimits
    /// Held while the intake lives, so that a server starting meanwhile leaves the files it placed alone.
    private let writing: PhotoWriterLock
    /// Every photo checked, in order, each once.
    public private(set) var photos: [Photo] = []
    private var bySHA: [String: Photo] = [:]
    /// Checked and waiting for `place`: the staged file and its small thumbnail.
    private var waiting: [Waiting] = []
    private var placed: [StoredOriginal] = []
    /// Storing what was checked before `place` (`placeAhead`): each batch after the one before it.
    private var placing: Task<Placement, Never>?

    typealias Waiting = (upload: UploadWriter, photo: Photo, format: MediaFormat, small: Data)

    public init(storage: any PhotoStorage, family: FamilyID, now: Date, dryRun: Bool = false, limits: PhotoLimits = .standard)
        throws(PhotoError)
    {
        self.storage = storage
        writing = try storage.writerLock()
        self.family = family
        self.now = now
        self.dryRun = dryRun
        self.limits = limits
    }

    deinit { waiting.forEach { $0.upload.abandon() } }

    /// The clock a clip's UTC capture time is shown on: the diary's (entries default to it too).
    static let familyClock = TimeZone(identifier: EntryContent.defaultTimeZone) ?? .current

    /// A new staging file to stream one photo's bytes into.
    public func stage() throws(PhotoError) -> UploadWriter { try storage.stage(limits: limits) }

    /// Checks a staged file; the same bytes checked before give the same photo. `coordinates` are where the source
    /// says it was taken, used when the file itself does not say.
    @discardableResult
    public func check(_ upload: UploadWriter, coordinates: (latitude: Double, longitude: Double)? = nil) throws(PhotoError) -> Photo {
        guard let result = check([Staged(upload: upload, coordinates: coordinates)]).first else { throw .internal("nothing was checked") }
        return try result.get()
    }

    /// A staged file to check, and where its source says it was taken.
    public struct Staged: Sendable {
        public let upload: UploadWriter
        public let coordinates: (latitude: Double, longitude: Double)?

        public init(upload: UploadWriter, coordinates: (latitude: Double, longitude: Double)? = nil) {
            self.upload = upload
            self.coordinates = coordinates
        }
    }

    /// Checks staged files, up to `threads` at once — decoding each and making its thumbnail is most of an import's
    /// time, and one file's check needs nothing of another's — and records them in the order given, as checking them
    /// one by one would: bytes checked before (in this call or an earlier one) give the same photo. Each answer is
    /// the photo or why its file was refused (and dropped).
    public func check(_ staged: [Staged], threads: Int = min(4, ProcessInfo.processInfo.activeProcessorCount)) -> [Result<Photo, PhotoError>] {
        var hashes: [Result<String, PhotoError>] = []
        var firstOf: [String: Int] = [:]
        var toExamine: [Int] = []
        for (index, item) in staged.enumerated() {
            do throws(PhotoError) {
                let sha256 = try item.upload.finish()
                hashes.append(.success(sha256))
                if bySHA[sha256] == nil, firstOf[sha256] == nil {
                    firstOf[sha256] = index
                    toExamine.append(index)
                }
            } catch {
                hashes.append(.failure(error))
            }
        }
        let examined = Examined(count: staged.count)
        let (work, shas) = (toExamine, hashes)
        let workers = max(1, min(threads, work.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for position in stride(from: worker, to: work.count, by: workers) {
                let index = work[position]
                guard case .success(let sha256) = shas[index] else { continue }
                examined.set(index, Result { () throws(PhotoError) in try examine(staged[index], sha256: sha256) })
            }
        }
        var answers: [Result<Photo, PhotoError>] = []
        for (index, item) in staged.enumerated() {
            switch hashes[index] {
            case .failure(let error):
                item.upload.abandon()
                answers.append(.failure(error))
            case .success(let sha256):
                if let known = bySHA[sha256] {
                    item.upload.abandon()
                    answers.append(.success(known))
                    continue
                }
                // The first of the same bytes in this call was examined; a later one is answered alike.
                switch firstOf[sha256].flatMap({ examined.get($0) }) {
                case .success(let checked)?:
                    bySHA[sha256] = checked.photo
                    photos.append(checked.photo)
                    if dryRun { item.upload.abandon() } else { waiting.append((item.upload, checked.photo, checked.format, checked.small)) }
                    answers.append(.success(checked.photo))
                case .failure(let error)?:
                    item.upload.abandon()
                    answers.append(.failure(error))
                case nil:
                    item.upload.abandon()
                    answers.append(.failure(.internal("a staged file was not examined")))
                }
            }
        }
        return answers
    }

    /// One file inspected and given its small thumbnail: what `check` records. Touches nothing of the intake's but
    /// its constants, so files are examined on several threads at once.
    private func examine(_ staged: Staged, sha256: String) throws(PhotoError) -> (photo: Photo, format: MediaFormat, small: Data) {
        let upload = staged.upload
        if case .success(let sniffed) = MediaFormat.sniff(upload.head), sniffed.isVideo {
            let info = try VideoInspector.inspect(
                upload.url, format: sniffed, byteCount: upload.byteCount, limits: limits.video, zone: Self.familyClock)
            let small = try VideoRendition.thumbnail(
                of: MediaInput(path: upload.url.path, format: sniffed), durationMilliseconds: info.durationMilliseconds, size: .small,
                poster: storage.scratchFile(extension: "jpg"))
            let photo = Photo(
                checked: info, sha256: sha256, byteCount: upload.byteCount, family: family, now: now, coordinates: staged.coordinates)
            return (photo, sniffed, small)
        }
        let info = try ImageInspector.inspect(upload.url, limits: limits)
        let small = try Thumbnailer.thumbnail(of: upload.url, size: .small)
        let photo = Photo(checked: info, sha256: sha256, byteCount: upload.byteCount, family: family, now: now, coordinates: staged.coordinates)
        return (photo, info.format, small)
    }

    /// Takes a photo given as bytes (a Core Data blob).
    public func take(_ data: Data, coordinates: (latitude: Double, longitude: Double)? = nil) throws -> Photo {
        try take(coordinates: coordinates) { writer in try data.withUnsafeBytes { try writer.write(untyped: $0) } }
    }

    /// Takes a photo whose bytes `fill` streams into the staging file (a file in a ZIP).
    public func take(coordinates: (latitude: Double, longitude: Double)? = nil, _ fill: (UploadWriter) throws -> Void) throws -> Photo {
        let upload = try stage()
        do {
            try fill(upload)
        } catch {
            upload.abandon()
            throw error
        }
        return try check(upload, coordinates: coordinates)
    }

    /// Stores every checked file and its small thumbnail at its content address.
    public func place() async throws(PhotoError) {
        placeAhead()
        let outcome = await placing?.value ?? Placement()
        placing = nil
        placed += outcome.placed
        if let failure = outcome.failure { throw failure }
    }

    /// Starts storing the files checked so far while the caller goes on (an import's checking line, between its
    /// chunks: storing waits for the disk, checking for the processor); `place` waits for it and says how it went.
    /// One batch at a time, each after the one before, so that storing (which may block on `fsync`) holds one of the
    /// concurrency pool's threads at most.
    func placeAhead() {
        guard !waiting.isEmpty else { return }
        let (items, storage, before) = (waiting, storage, placing)
        waiting = []
        placing = Task {
            var outcome = await before?.value ?? Placement()
            for item in items {
                defer { item.upload.abandon() }
                guard outcome.failure == nil else { continue }
                do throws(PhotoError) {
                    if try await storage.putOriginal(item.upload.url, sha256: item.photo.sha256, format: item.format) {
                        outcome.placed.append(StoredOriginal(sha256: item.photo.sha256, format: item.format))
                    }
                    try await storage.putThumbnail(item.small, sha256: item.photo.sha256, size: .small)
                } catch {
                    outcome.failure = error
                }
            }
            return outcome
        }
    }

    /// What `placeAhead` stored without `place` being asked, once the batches started so far end (tests: storing
    /// begins while checking goes on, whatever the machine's load makes of the time it takes).
    func storedAhead() async -> [StoredOriginal] { await placing?.value.placed ?? [] }

    /// The files a run of `placeAhead` stored, and the failure that stopped it.
    struct Placement: Sendable {
        var placed: [StoredOriginal] = []
        var failure: PhotoError?
    }

    /// After the rows were written or not: deletes the files this intake placed that no row refers to, and drops
    /// what was checked but never placed. `referenced` nil — the rows could not be read — deletes nothing: a
    /// committed row's file must never go, and the start-up sweep removes true orphans. Storage shared by several
    /// servers deletes nothing here either: another server may have found the same bytes already stored a moment
    /// ago and be about to commit its row; the sweep takes what is still unreferenced an hour later.
    public func settle(referenced: Set<String>?) async {
        if let placing { placed += await placing.value.placed }
        placing = nil
        waiting.forEach { $0.upload.abandon() }
        waiting = []
        if storage.isShared { placed = [] }
        for file in placed where referenced.map({ !$0.contains(file.sha256) }) ?? false {
            await storage.delete(sha256: file.sha256, format: file.format)
        }
        placed = []
    }
}

extension Photo {
    /// The row for a checked clip: its picture as displayed, length, codecs and whether it needs a web rendition.
    init(
        checked info: VideoInfo, sha256: String, byteCount: Int, family: FamilyID, now: Date,
        coordinates: (latitude: Double, longitude: Double)?
    ) {
        let place = Self.place(info.latitude, info.longitude, or: coordinates)
        self.init(
            familyID: family, sha256: sha256, mimeType: info.format.mimeType, byteCount: byteCount, width: info.width,
            height: info.height, takenLocal: info.taken?.local, takenOffset: info.taken?.offset, latitude: place.0,
            longitude: place.1, cameraMake: info.cameraMake, cameraModel: info.cameraModel,
            video: VideoFacts(
                durationMilliseconds: info.durationMilliseconds, videoCodec: info.videoCodec, audioCodec: info.audioCodec,
                rendition: info.rendition == .none ? .none : .pending),
            createdAt: now)
    }

    /// The row for a checked file: what the inspector read from it. `coordinates` (where the source says it was
    /// taken) stand in when the file itself has none.
    init(
        checked info: ImageInfo, sha256: String, byteCount: Int, family: FamilyID, now: Date,
        coordinates: (latitude: Double, longitude: Double)?
    ) {
        let place = Self.place(info.latitude, info.longitude, or: coordinates)
        self.init(
            familyID: family, sha256: sha256, mimeType: info.format.mimeType, byteCount: byteCount, width: info.width,
            height: info.height, orientation: info.orientation, takenLocal: info.taken?.local, takenOffset: info.taken?.offset,
            latitude: place.0, longitude: place.1, cameraMake: info.cameraMake, cameraModel: info.cameraModel, createdAt: now)
    }

    /// Where the file says it was taken, else where its source says (a Day One entry's location).
    static func place(_ latitude: Double?, _ longitude: Double?, or coordinates: (latitude: Double, longitude: Double)?) -> (Double?, Double?) {
        latitude != nil ? (latitude, longitude) : (coordinates?.latitude, coordinates?.longitude)
    }
}

/// The answers of files examined on several threads, each written once by its own thread and read after all of them.
private final class Examined: @unchecked Sendable {
    typealias Answer = Result<(photo: Photo, format: MediaFormat, small: Data), PhotoError>

    private let lock = NSLock()
    private var answers: [Answer?]

    init(count: Int) { answers = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ answer: Answer) { lock.withLock { answers[index] = answer } }

    func get(_ index: Int) -> Answer? { lock.withLock { answers[index] } }
}
