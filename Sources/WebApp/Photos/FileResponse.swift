import Foundation
import Hummingbird
import Photos

/// Serves a stored file the way browsers and phones cache it: a strong ETag (content-addressed files never
/// change), private long-lived caching, single byte ranges, and no content sniffing.
///
/// Not Hummingbird's `FileMiddleware`: it serves a folder by URL path to anyone, with ETags from size and time,
/// while photos are served by routes that check the family first, come from `PhotoStorage` (a folder today,
/// object storage next), and take their ETag from the content hash or, for share links, from the link.
enum FileResponse {
    /// How long a cache may keep a file: a member's own photos for a year; what a share link shows only briefly,
    /// because the link can be revoked and the photo taken out of it (issue 17).
    enum Caching: String {
        case member = "private, max-age=31536000, immutable"
        case shareLink = "private, max-age=300"
        /// A book or archive: a year of the diary in one file, which no cache keeps (issue 66); its maker's right to
        /// it can end (`Grant.book`).
        case never = "no-store"
    }

    static func serve(
        _ file: any StoredPhotoFile, contentType: String, etag tag: String, caching: Caching = .member, request: Request
    ) async throws -> Response {
        let etag = "\"\(tag)\""
        var headers: HTTPFields = [
            .contentType: contentType, .eTag: etag, .cacheControl: caching.rawValue,
            .acceptRanges: "bytes", .xContentTypeOptions: "nosniff",
        ]
        if let match = request.headers[.ifNoneMatch],
            match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag || $0 == "*" })
        {
            return Response(status: .notModified, headers: headers)
        }
        let size = file.byteCount
        var range = 0...max(0, size - 1)
        var code = HTTPResponse.Status.ok
        if let rangeHeader = request.headers[.range] {
            guard let requested = byteRange(rangeHeader, size: size) else {
                headers[.contentRange] = "bytes */\(size)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
            range = requested
            code = .partialContent
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
        }
        headers[.contentLength] = String(size == 0 ? 0 : range.count)
        guard size > 0 else { return Response(status: code, headers: headers) }
        guard size > readWholeLimit else {
            // Thumbnails: one read, from the page cache as a rule.
            var whole = ByteBuffer()
            try await file.read(range, chunkSize: readWholeLimit) { whole.writeBytes($0) }
            return Response(status: code, headers: headers, body: ResponseBody(byteBuffer: whole))
        }
        // Originals are streamed in chunks, never held whole in memory.
        return Response(status: code, headers: headers, body: ResponseBody { [range] writer in
            try await file.read(range, chunkSize: chunkSize) { try await writer.write(ByteBuffer(bytes: $0)) }
            try await writer.finish(nil)
        })
    }

    /// Files up to this size (every thumbnail) are read in one call; larger ones are streamed in `chunkSize` pieces.
    static let readWholeLimit = 1 << 20
    static let chunkSize = 128 << 10

    /// One range of `bytes=a-b`, `bytes=a-` or `bytes=-n`, or nil when unsatisfiable or not understood.
    static func byteRange(_ header: String, size: Int) -> ClosedRange<Int>? {
        guard header.hasPrefix("bytes="), size > 0 else { return nil }
        let spec = header.dropFirst(6)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let start = Int(spec[..<dash].trimmingCharacters(in: .whitespaces))
        let end = Int(spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces))
        switch (start, end) {
        case (let start?, nil) where start < size: return start...(size - 1)
        case (let start?, let end?) where start <= end && start < size: return start...min(end, size - 1)
        case (nil, let suffix?) where suffix > 0: return max(0, size - suffix)...(size - 1)
        default: return nil
        }
    }
}
