import Foundation
import Hummingbird

#if canImport(Glibc)
import Glibc
#endif

/// Serves a stored file the way browsers and phones cache it: a strong ETag (content-addressed files never
/// change), private long-lived caching, single byte ranges, and no content sniffing.
enum FileResponse {
    static let fileIO = FileIO()

    /// How long a cache may keep a file: a member's own photos for a year; what a share link shows only briefly,
    /// because the link can be revoked and the photo taken out of it (issue 17).
    enum Caching: String {
        case member = "private, max-age=31536000, immutable"
        case shareLink = "private, max-age=300"
    }

    static func serve(
        _ url: URL, contentType: String, etag tag: String, caching: Caching = .member, request: Request, context: AppRequestContext
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
        // One open and one fstat: cheaper than asking FileManager for the attributes first.
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Problem(status: .notFound, detail: "the photo file is missing") }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Problem(status: .notFound, detail: "the photo file is missing") }
        let size = Int(status.st_size)
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
            try handle.seek(toOffset: UInt64(range.lowerBound))
            let data = try handle.read(upToCount: range.count) ?? Data()
            return Response(status: code, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        }
        // Originals are streamed in chunks by NIO's file system, never held whole in memory.
        return Response(status: code, headers: headers, body: try await fileIO.loadFile(path: url.path, range: range, context: context))
    }

    /// Files up to this size (every thumbnail) are read in one call; larger ones are streamed.
    static let readWholeLimit = 1 << 20

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
