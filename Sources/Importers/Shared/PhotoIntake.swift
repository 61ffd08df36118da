import Diary
import DiaryStore
import Foundation
import Photos

extension Photo {
    /// The row for a checked file: what the inspector read from it. `coordinates` (where the source says it was
    /// taken) stand in when the file itself has none.
    public init(
        checked info: ImageInfo, sha256: String, byteCount: Int, family: FamilyID, now: Date,
        coordinates: (latitude: Double, longitude: Double)? = nil
    ) {
        let place = info.latitude != nil ? (info.latitude, info.longitude) : (coordinates?.latitude, coordinates?.longitude)
        self.init(
            familyID: family, sha256: sha256, mimeType: info.format.mimeType, byteCount: byteCount, width: info.width,
            height: info.height, orientation: info.orientation, takenLocal: info.taken?.local, takenOffset: info.taken?.offset,
            latitude: place.0, longitude: place.1, cameraMake: info.cameraMake, cameraModel: info.cameraModel, createdAt: now)
    }
}

/// Photos an import brings, checked and stored before the import's transaction commits: each is streamed to the
/// library's incoming folder, inspected, given its small thumbnail (which proves it decodes) and moved to its content
/// address. A dry run checks and discards. After the import, committed or not, `settle` removes the files it placed
/// that no row refers to (a failed import's, or photos of records that were already imported). Large thumbnails are
/// made by the server's worker (the rows say 'pending').
///
/// One import uses it from one thread at a time (its reading thread, then `settle` after it): `@unchecked Sendable`
/// only to cross from the task to that thread and back.
public final class PhotoIntake: @unchecked Sendable {
    let library: PhotoLibrary
    let family: FamilyID
    let now: Date
    let dryRun: Bool
    let limits: PhotoLimits
    /// Held while the import lives, so that a server starting meanwhile leaves the files it placed alone.
    private let writing: PhotoWriterLock
    private(set) var photos: [Photo] = []
    private var placed: [(sha256: String, format: ImageFormat)] = []
    private var bySHA: [String: Photo] = [:]

    public init(dataFolder: URL, family: FamilyID, now: Date, dryRun: Bool, limits: PhotoLimits = .standard) throws {
        try PhotoLibrary.startImageLibrary()
        library = try PhotoLibrary(dataFolder: dataFolder)
        writing = try PhotoWriterLock(library: library)
        self.family = family
        self.now = now
        self.dryRun = dryRun
        self.limits = limits
    }

    /// Takes a photo given as bytes (a Core Data blob); `coordinates` are where the source says it was taken, used
    /// when the file itself does not say.
    public func take(_ data: Data, coordinates: (latitude: Double, longitude: Double)? = nil) throws -> Photo {
        try take(coordinates: coordinates) { writer in try Self.write(data, to: writer) }
    }

    /// Kept out of a closure: a typed throw inside one crashes this compiler.
    public static func write(_ data: Data, to writer: UploadWriter) throws {
        let failure: PhotoError? = data.withUnsafeBytes { bytes in Self.failure(writing: bytes, to: writer) }
        if let failure { throw failure }
    }

    /// The error of writing `bytes`, if any (returned, not thrown, for the same reason).
    static func failure(writing bytes: UnsafeRawBufferPointer, to writer: UploadWriter) -> PhotoError? {
        do {
            try writer.write(bytes)
            return nil
        } catch {
            return error
        }
    }

    /// Takes a photo whose bytes `fill` streams into the writer (a file in a ZIP).
    public func take(coordinates: (latitude: Double, longitude: Double)? = nil, _ fill: (UploadWriter) throws -> Void) throws -> Photo {
        let upload = try library.incoming(limits: limits)
        defer { upload.abandon() }
        try fill(upload)
        let sha256 = try upload.finish()
        if let known = bySHA[sha256] { return known }
        let info = try ImageInspector.inspect(upload.url, limits: limits)
        let small = try Thumbnailer.thumbnail(of: upload.url, size: .small)
        let photo = Photo(
            checked: info, sha256: sha256, byteCount: upload.byteCount, family: family, now: now, coordinates: coordinates)
        if !dryRun {
            if try library.keep(upload.url, sha256: sha256, format: info.format).isNew { placed.append((sha256, info.format)) }
            try library.saveThumbnail(small, sha256: sha256, size: .small)
        }
        bySHA[sha256] = photo
        photos.append(photo)
        return photo
    }

    /// After the import: deletes the files this import placed that no row refers to.
    public func settle(database: DiaryDatabase) async {
        let referenced = (try? await PhotoStore(database).referencedHashes()) ?? []
        for file in placed where !referenced.contains(file.sha256) { library.remove(sha256: file.sha256, format: file.format) }
        placed = []
    }
}
