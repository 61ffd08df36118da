import Foundation
import Hummingbird

/// Serves a stored file the way browsers and phones cache it: a strong ETag (content-addressed files never
/// change), private long-lived caching, single byte ranges, and no content sniffing.
enum FileResponse {
    static let fileIO = FileIO()

    static func serve(_ url: URL, contentType: String, etag tag: String, request: Request, context: AppRequestContext) async throws
        -> Response
    {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path), let size = attributes[.size] as? Int else {
            throw Problem(status: .notFound, detail: "the photo file is missing")
        }
        let etag = "\"\(tag)\""
        var headers: HTTPFields = [
            .contentType: contentType, .eTag: etag, .cacheControl: "private, max-age=31536000, immutable",
            .acceptRanges: "bytes", .xContentTypeOptions: "nosniff",
        ]
        if let match = request.headers[.ifNoneMatch], match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag || $0 == "*" }) {
            return Response(status: .notModified, headers: headers)
        }
        if let rangeHeader = request.headers[.range] {
            guard let range = byteRange(rangeHeader, size: size) else {
                headers[.contentRange] = "bytes */\(size)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
            headers[.contentLength] = String(range.count)
            return Response(status: .partialContent, headers: headers, body: try await body(url, range: range, size: size, context: context))
        }
        headers[.contentLength] = String(size)
        return Response(status: .ok, headers: headers, body: try await body(url, range: 0...max(0, size - 1), size: size, context: context))
    }

    /// Files up to this size (every thumbnail) are read in one call, from the page cache as a rule; larger ones
    /// (originals) are streamed in chunks by NIO's file system, never held whole in memory.
    static let readWholeLimit = 1 << 20

    private static func body(_ url: URL, range: ClosedRange<Int>, size: Int, context: AppRequestContext) async throws -> ResponseBody {
        guard size > 0 else { return ResponseBody() }
        guard size > readWholeLimit else {
            guard let handle = FileHandle(forReadingAtPath: url.path) else { throw Problem(status: .notFound, detail: "the photo file is missing") }
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(range.lowerBound))
            let data = try handle.read(upToCount: range.count) ?? Data()
            return ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        }
        return try await fileIO.loadFile(path: url.path, range: range, context: context)
    }

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
