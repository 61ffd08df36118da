import Diary
import Files
import Foundation
import NIOCore
import Photos
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One resumable upload (the tus 1.0 protocol, docs/api.md): announced with its length, then sent in as many pieces
/// as the connection allows, each appended at the offset the server confirms. Kept in the data folder's `uploads/`
/// as `<id>.part` (the bytes so far) beside `<id>.json` (this record, written atomically), so that a phone that
/// lost its signal, a reloaded page or a restarted server goes on from the last byte stored.
public struct ResumableUpload: Codable, Equatable, Sendable {
    public let id: String
    public let familyID: FamilyID
    /// Only the member who began an upload continues it.
    public let userID: UserID
    public let length: Int
    /// The name the device gave the file (for its list of uploads; never a path).
    public let fileName: String?
    /// The client's `Idempotency-Key`: announcing the same upload again gives back this one.
    public let key: String?
    public let createdAt: Date
    /// The bytes confirmed on disk (fsynced, then written here): after a power cut the file may be longer, with
    /// blocks that never reached the disk, so what lies past this is dropped before the next piece.
    public var stored = 0
    /// The photo it became, once all of it was there.
    public var photoID: PhotoID?
    /// Why the file was refused (415, 413, 422): sending it again cannot change that.
    public var refusal: Refusal?

    public struct Refusal: Codable, Equatable, Sendable {
        public let status: Int
        public let detail: String
    }

    public var isOpen: Bool { photoID == nil && refusal == nil }
}

/// What can go wrong with a resumable upload; the web layer gives each its status.
public enum ResumableUploadError: Error, Equatable, Sendable {
    /// No such upload of this member (or it expired).
    case notFound
    /// The piece was sent for another offset than the bytes stored: carries the offset stored.
    case offsetMismatch(stored: Int)
    /// Another request is appending to the same upload right now.
    case busy
    /// Too many unfinished uploads for one member.
    case tooMany(Int)
    /// Announced longer than the server takes (carries the limit), or a piece going past the announced length.
    case tooLong(limit: Int)
    case pastLength
    /// The file itself was refused, now or before.
    case refused(ResumableUpload.Refusal)
}

/// The data folder's resumable uploads. Appends to one upload are one at a time; the bytes are fsynced before an
/// offset is confirmed; a piece cut off mid-way keeps what arrived (the client asks for the offset and goes on).
/// Once the last byte is in, the file is taken in as any upload is (`PhotoService.ingest`). Records live for
/// `lifetime` after they were announced, then go with their bytes.
public final class ResumableUploads: Sendable {
    public let folder: URL
    let photos: PhotoService
    public let lifetime: TimeInterval
    public static let maxOpenPerMember = 100
    private let appending = Mutex<Set<String>>([])
    /// Announcements are one at a time, so that one key never makes two uploads.
    private let announcing = Mutex(())

    public init(dataFolder: URL, photos: PhotoService, lifetime: TimeInterval = 24 * 3600) {
        folder = dataFolder.appendingPathComponent("uploads", isDirectory: true)
        self.photos = photos
        self.lifetime = lifetime
    }

    /// The largest upload announced: a video's limit (a photo's is checked as soon as its first bytes show it).
    public var maxLength: Int { photos.limits.maxUploadBytes }

    public func expiry(of upload: ResumableUpload) -> Date { upload.createdAt.addingTimeInterval(lifetime) }

    /// A new upload of `length` bytes, or the one announced before with the same `key` by this member.
    public func announce(family: FamilyID, user: UserID, length: Int, fileName: String?, key: String?, now: Date) throws
        -> (upload: ResumableUpload, isNew: Bool)
    {
        guard (0...maxLength).contains(length) else { throw ResumableUploadError.tooLong(limit: maxLength) }
        // Refused before anything is stored when the disk would be left without its margin (issue 66).
        if let space = DiskSpace.at(folder), !space.fits(Int64(length)) { throw StorageFull("the upload") }
        return try announcing.withLock { _ in
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let records = sweep(now: now).filter { $0.familyID == family && $0.userID == user }
            if let key, let earlier = records.first(where: { $0.key == key }) { return (earlier, false) }
            guard records.filter(\.isOpen).count < Self.maxOpenPerMember else { throw ResumableUploadError.tooMany(Self.maxOpenPerMember) }
            var random = SystemRandomNumberGenerator()
            let id = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &random)) }.joined()
            let upload = ResumableUpload(
                id: id, familyID: family, userID: user, length: length, fileName: fileName, key: key, createdAt: now)
            let descriptor = open(part(id).path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw FileError.system("create \(part(id).lastPathComponent)", errno) }
            close(descriptor)
            try save(upload)
            return (upload, true)
        }
    }

    /// This member's upload and the bytes stored of it.
    public func status(_ id: String, family: FamilyID, user: UserID, now: Date) throws -> (upload: ResumableUpload, offset: Int) {
        let upload = try record(id, family: family, user: user, now: now)
        return (upload, upload.isOpen ? storedBytes(upload) : upload.length)
    }

    /// Appends `body` at `offset` (which must be the offset stored); when that completes the file, takes it in.
    /// Returns the new offset and, once complete, the photo.
    public func append<Body: AsyncSequence>(
        _ id: String, family: FamilyID, user: UserID, offset: Int, body: Body, now: Date
    ) async throws -> (offset: Int, upload: ResumableUpload) where Body.Element == ByteBuffer {
        var upload = try record(id, family: family, user: user, now: now)
        if let refusal = upload.refusal { throw ResumableUploadError.refused(refusal) }
        guard upload.photoID == nil else {
            guard offset == upload.length else { throw ResumableUploadError.offsetMismatch(stored: upload.length) }
            return (upload.length, upload)
        }
        guard appending.withLock({ $0.insert(id).inserted }) else { throw ResumableUploadError.busy }
        defer { _ = appending.withLock { $0.remove(id) } }
        // Read again now that this request alone appends: one that just finished may have made it a photo.
        upload = try record(id, family: family, user: user, now: now)
        guard upload.isOpen else { return try await append(id, family: family, user: user, offset: offset, body: body, now: now) }
        let stored = storedBytes(upload)
        guard offset == stored else { throw ResumableUploadError.offsetMismatch(stored: stored) }
        let (total, cutOff) = try await write(body, to: part(id), from: stored, limit: upload.length)
        upload.stored = total
        try save(upload)
        if let cutOff { throw cutOff }
        if let refusal = earlyRefusal(upload, stored: total) { upload = try refuse(upload, refusal) }
        if let refusal = upload.refusal { throw ResumableUploadError.refused(refusal) }
        guard total == upload.length else { return (total, upload) }
        upload = try await takeIn(upload, now: now)
        if let refusal = upload.refusal { throw ResumableUploadError.refused(refusal) }
        return (total, upload)
    }

    /// Forgets an upload and its bytes (the client gave it up).
    public func delete(_ id: String, family: FamilyID, user: UserID, now: Date) throws {
        _ = try record(id, family: family, user: user, now: now)
        guard appending.withLock({ !$0.contains(id) }) else { throw ResumableUploadError.busy }
        remove(id)
    }

    // MARK: Files

    /// `<32 hex>`: anything else names no upload (and never a path).
    public static func isID(_ id: String) -> Bool { id.utf8.count == 32 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) } }

    private func part(_ id: String) -> URL { folder.appendingPathComponent("\(id).part") }
    private func meta(_ id: String) -> URL { folder.appendingPathComponent("\(id).json") }

    private func storedBytes(_ upload: ResumableUpload) -> Int {
        var info = stat()
        return stat(part(upload.id).path, &info) == 0 ? min(Int(info.st_size), upload.stored) : 0
    }

    private func save(_ upload: ResumableUpload) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        try AtomicFile.write(try encoder.encode(upload), to: meta(upload.id), permissions: 0o600)
    }

    private func load(_ id: String) -> ResumableUpload? {
        guard Self.isID(id), let data = FileManager.default.contents(atPath: meta(id).path) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return try? decoder.decode(ResumableUpload.self, from: data)
    }

    private func record(_ id: String, family: FamilyID, user: UserID, now: Date) throws -> ResumableUpload {
        guard let upload = load(id), upload.familyID == family, upload.userID == user, expiry(of: upload) > now else {
            throw ResumableUploadError.notFound
        }
        return upload
    }

    private func remove(_ id: String) {
        unlink(part(id).path)
        unlink(meta(id).path)
    }

    /// Every record still alive; expired ones (and bytes without a record) go.
    @discardableResult
    public func sweep(now: Date) -> [ResumableUpload] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var alive: [ResumableUpload] = []
        for name in names where name.hasSuffix(".json") || name.hasSuffix(".part") {
            let id = String(name.prefix { $0 != "." })
            guard name.hasSuffix(".json") else {
                if load(id) == nil && !FileManager.default.fileExists(atPath: meta(id).path) { unlink(part(id).path) }
                continue
            }
            guard let upload = load(id), expiry(of: upload) > now else {
                remove(id)
                continue
            }
            alive.append(upload)
        }
        return alive
    }

    /// Appends the body's bytes at `start` (dropping whatever lies past it), never past `limit`; fsyncs what arrived,
    /// also when the body was cut off — then returned with the error that cut it.
    private func write<Body: AsyncSequence>(_ body: Body, to url: URL, from start: Int, limit: Int) async throws
        -> (written: Int, cutOff: (any Error)?) where Body.Element == ByteBuffer
    {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileError.system("open \(url.lastPathComponent)", errno) }
        defer { close(descriptor) }
        guard ftruncate(descriptor, off_t(start)) == 0, lseek(descriptor, off_t(start), SEEK_SET) == off_t(start) else {
            throw FileError.system("seek", errno)
        }
        var written = start
        do {
            for try await piece in body {
                guard written + piece.readableBytes <= limit else {
                    _ = ftruncate(descriptor, off_t(start))
                    throw ResumableUploadError.pastLength
                }
                try piece.withUnsafeReadableBytes { try POSIXFile.writeAll(descriptor, $0) }
                written += piece.readableBytes
            }
        } catch let error as ResumableUploadError {
            throw error
        } catch {
            // Cut off: what arrived stays, so that the client can go on from there.
            guard fsync(descriptor) == 0 else { throw FileError.system("fsync", errno) }
            return (written, error)
        }
        guard fsync(descriptor) == 0 else { throw FileError.system("fsync", errno) }
        return (written, nil)
    }

    /// Refused by its first bytes: not a format taken, or a photo announced larger than a photo may be.
    private func earlyRefusal(_ upload: ResumableUpload, stored: Int) -> ResumableUpload.Refusal? {
        guard stored >= min(MediaFormat.sniffLength, upload.length), let handle = FileHandle(forReadingAtPath: part(upload.id).path)
        else { return nil }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: MediaFormat.sniffLength)) ?? Data()
        switch MediaFormat.sniff(head) {
        case .failure(let error): return error.refusalStatus.map { .init(status: $0, detail: error.description) }
        case .success(let format) where !format.isVideo && upload.length > photos.limits.maxBytes:
            let error = PhotoError.tooLarge("the photo is larger than the \(ImageInspector.megabytes(photos.limits.maxBytes)) limit")
            return .init(status: 413, detail: error.description)
        case .success: return nil
        }
    }

    private func refuse(_ upload: ResumableUpload, _ refusal: ResumableUpload.Refusal) throws -> ResumableUpload {
        var refused = upload
        refused.refusal = refusal
        try save(refused)
        unlink(part(upload.id).path)
        return refused
    }

    /// The whole file is there: a link to it in the staging area goes through the photo intake. A refusal is kept;
    /// a failure of the server (a full disk, object storage away) keeps the bytes for the client's next try.
    private func takeIn(_ upload: ResumableUpload, now: Date) async throws -> ResumableUpload {
        let staged = photos.storage.scratchFile(extension: "part")
        if link(part(upload.id).path, staged.path) != 0 {
            try FileManager.default.copyItem(at: part(upload.id), to: staged)
        }
        let writer: UploadWriter
        do {
            writer = try UploadWriter(adopting: staged, limit: photos.limits.maxBytes, videoLimit: photos.limits.video.maxBytes)
        } catch {
            unlink(staged.path)
            guard let status = error.refusalStatus else { throw error }
            return try refuse(upload, .init(status: status, detail: error.description))
        }
        do {
            let photo = try await photos.ingest([writer], family: upload.familyID, entry: nil, now: now)
            var done = upload
            done.photoID = photo.first?.id
            try save(done)
            unlink(part(upload.id).path)
            return done
        } catch let error as PhotoError {
            guard let status = error.refusalStatus else { throw error }
            return try refuse(upload, .init(status: status, detail: error.description))
        }
    }
}
