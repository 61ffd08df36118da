import Diary
import Foundation
import Photos

/// Where the printer gets a photo's print image: the original, read from the photo store (the folder, or object
/// storage through a local copy), made upright and as large as its place needs.
public protocol BookPhotoSource: Sendable {
    /// The print image fitting `width` × `height` pixels; nil when the original is not in the store.
    func printImage(of photo: Photo, width: Int, height: Int) async throws -> PrintImage?
}

public struct StoredBookPhotos: BookPhotoSource {
    let storage: any PhotoStorage

    public init(storage: any PhotoStorage) { self.storage = storage }

    public func printImage(of photo: Photo, width: Int, height: Int) async throws -> PrintImage? {
        guard let format = MediaFormat(mimeType: photo.mimeType),
              let original = try await storage.localOriginal(sha256: photo.sha256, format: format)
        else { return nil }
        let scratch = storage.scratchFile(extension: "jpg")
        return try Thumbnailer.printImage(of: photo, original: original.url, width: width, height: height, scratch: scratch)
    }
}
