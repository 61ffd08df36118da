import AsyncHTTPClient
import Crypto
import Foundation
import S3Answers
import NIOCore
import NIOHTTP1

/// The small S3 client Saessak needs, over async-http-client (no maintained Swift S3 library is in the machine's
/// package list; Soto is not). Every request is signed (`SignatureV4`) with its payload's SHA-256, bodies stream from
/// local files a quarter MiB at a time (a 24 MP photo never sits in memory), what comes back is checked (an upload's
/// ETag against the MD5 computed here, a ranged read's length), and 5xx answers, timeouts and dropped connections
/// are tried again with backoff before the store is called unreachable.
public struct S3Client: Sendable {
    public let settings: S3Settings
    let signer: SignatureV4
    let http: HTTPClient
    /// Tries per request, and the first pause between them (×3 each time, plus up to half again at random).
    let attempts: Int
    let firstPause: Duration
    /// Bytes read from a file per piece of a streamed body.
    static let pieceSize = 256 << 10
    /// Ranged reads go in windows of at most this many bytes, each a request of its own (retried alone).
    public static let readWindow = 4 << 20

    /// One HTTP client for the process, never shut down: connect within 5 s, and no 30 s without a byte.
    /// Redirects are not followed (they would carry the signature elsewhere).
    static let sharedHTTP = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5), read: .seconds(30)), decompression: .disabled))

    public init(settings: S3Settings, attempts: Int = 4, firstPause: Duration = .milliseconds(200)) {
        self.settings = settings
        signer = SignatureV4(credentials: settings.credentials, region: settings.region)
        http = Self.sharedHTTP
        self.attempts = max(1, attempts)
        self.firstPause = firstPause
    }

    /// The full key of a name under the prefix.
    public func key(_ name: String) -> String { settings.prefix.isEmpty ? name : "\(settings.prefix)/\(name)" }

    // MARK: Objects

    /// Size, ETag and stored SHA-256 (`x-amz-meta-sha256`) of an object; nil when there is none.
    public func head(_ key: String) async throws(S3Error) -> (size: Int, etag: String, sha256: String?)? {
        let answer = try await send(method: .HEAD, key: key, expect: [200, 404])
        guard answer.status == 200 else { return nil }
        guard let size = answer.headers.first(name: "content-length").flatMap({ Int($0) }), size >= 0 else {
            throw .malformed("HEAD \(key) gave no size")
        }
        return (size, Self.unquote(answer.headers.first(name: "etag") ?? ""), answer.headers.first(name: "x-amz-meta-sha256"))
    }

    /// The bytes of `range` of an object (one request: keep ranges within `readWindow`); nil when there is none.
    public func read(_ key: String, range: ClosedRange<Int>) async throws(S3Error) -> Data? {
        let answer = try await send(
            method: .GET, key: key, headers: [("range", "bytes=\(range.lowerBound)-\(range.upperBound)")], expect: [206, 200, 404],
            responseLimit: range.count + 1)
        guard answer.status != 404 else { return nil }
        var body = answer.body
        if answer.status == 200 {
            // A server that ignores Range sends all of it: take the part asked for, if it is there.
            guard body.count > range.upperBound else { throw .integrity("GET \(key) ended before byte \(range.upperBound)") }
            body = body.subdata(in: range.lowerBound..<(range.upperBound + 1))
        }
        guard body.count == range.count else { throw .integrity("GET \(key) gave \(body.count) bytes for a range of \(range.count)") }
        return body
    }

    /// A whole small object (a thumbnail); nil when there is none.
    public func read(_ key: String, limit: Int) async throws(S3Error) -> Data? {
        let answer = try await send(method: .GET, key: key, expect: [200, 404], responseLimit: limit)
        guard answer.status == 200 else { return nil }
        if let length = answer.headers.first(name: "content-length").flatMap({ Int($0) }), length != answer.body.count {
            throw .integrity("GET \(key) gave \(answer.body.count) of its \(length) bytes")
        }
        return answer.body
    }

    /// Copies an object of `size` bytes into a new local file, a window at a time; returns its SHA-256.
    @discardableResult
    public func download(_ key: String, size: Int, to file: URL) async throws(S3Error) -> String {
        guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = try? FileHandle(forWritingTo: file)
        else { throw .local("cannot create \(file.lastPathComponent)") }
        defer { try? handle.close() }
        let window = WindowToFile(handle: handle, name: file.lastPathComponent)
        var offset = 0
        while offset < size {
            let upper = min(size, offset + Self.readWindow) - 1
            window.next(offset...upper)
            let answer = try await send(
                method: .GET, key: key, headers: [("range", "bytes=\(offset)-\(upper)")], expect: [206, 200, 404], responseLimit: size + 1,
                sink: window)
            guard answer.status != 404 else { throw .refused(status: 404, code: "NoSuchKey", message: key) }
            guard window.written == upper - offset + 1 else {
                throw .integrity("GET \(key) gave \(window.written) bytes for a range of \(upper - offset + 1)")
            }
            offset = upper + 1
        }
        do { try handle.synchronize() } catch { throw .local("cannot sync \(file.lastPathComponent): \(error)") }
        return SignatureV4.hex(window.hasher.finalize())
    }

    /// One window of a download, written to the file and hashed as its pieces arrive: nothing of it is held in
    /// memory. A try of the window again starts from the window's start; a server that ignores Range (200, the whole
    /// object) gives only the window's bytes. Used by one task, a window after the other.
    private final class WindowToFile: BodySink {
        let handle: FileHandle
        let name: String
        private(set) var hasher = SHA256()
        private var before = SHA256()
        private var range = 0...0
        private var skip = 0
        private(set) var written = 0

        init(handle: FileHandle, name: String) {
            self.handle = handle
            self.name = name
        }

        func next(_ range: ClosedRange<Int>) {
            self.range = range
            before = hasher
        }

        func restart(status: Int) throws(S3Error) {
            hasher = before
            written = 0
            skip = status == 200 ? range.lowerBound : 0
            do { try handle.truncate(atOffset: UInt64(range.lowerBound)) } catch { throw S3Error.local("cannot write \(name): \(error)") }
        }

        func take(_ piece: ByteBuffer) throws(S3Error) {
            var piece = piece
            let skipped = min(skip, piece.readableBytes)
            piece.moveReaderIndex(forwardBy: skipped)
            skip -= skipped
            let wanted = min(piece.readableBytes, range.count - written)
            guard wanted > 0, let bytes = piece.readSlice(length: wanted) else { return }
            bytes.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
            do { try handle.write(contentsOf: bytes.readableBytesView) } catch { throw S3Error.local("cannot write \(name): \(error)") }
            written += wanted
        }
    }

    /// Stores small bytes as an object in one request, checking the ETag against their MD5.
    public func put(_ key: String, data: Data, contentType: String, metadata: [String: String] = [:]) async throws(S3Error) {
        let md5 = Data(Insecure.MD5.hash(data: data))
        let answer = try await send(
            method: .PUT, key: key, headers: Self.objectHeaders(contentType: contentType, md5: md5, metadata: metadata), body: .data(data),
            payloadHash: SignatureV4.hex(SHA256.hash(data: data)), expect: [200])
        try await checkOrDelete(etag: answer.headers.first(name: "etag"), equals: SignatureV4.hex(md5), key: key)
    }

    /// An object stored with other bytes than were sent must not stay under the name of the bytes that were.
    private func checkOrDelete(etag: String?, equals expected: String, key: String) async throws(S3Error) {
        do {
            try Self.check(etag: etag, equals: expected, key: key)
        } catch {
            try? await delete(key)
            throw error
        }
    }

    /// Stores a local file as an object, streaming it: in one request up to the part size, in parts above it (the
    /// multipart upload is aborted if any part fails, so nothing half-uploaded lingers). `sha256`, when known (a
    /// photo's identity), is the payload hash and is kept as `x-amz-meta-sha256`.
    public func upload(_ key: String, file: URL, sha256 known: String?, contentType: String) async throws(S3Error) {
        let size = try Self.size(of: file)
        // Hashed here whatever the caller knows: what goes up is what hashes to the name it goes under.
        let whole = try Self.digests(file, offset: 0, length: size, sha256: true)
        guard let sha256 = whole.sha256 else { throw .local("no SHA-256 for \(file.lastPathComponent)") }
        if let known, known != sha256 { throw .integrity("\(file.lastPathComponent) does not hash to \(known)") }
        let metadata = ["sha256": sha256]
        if size <= settings.partSize {
            let answer = try await send(
                method: .PUT, key: key, headers: Self.objectHeaders(contentType: contentType, md5: whole.md5, metadata: metadata),
                body: .file(file, offset: 0, length: size), payloadHash: sha256, expect: [200], timeout: Self.timeout(bytes: size))
            try await checkOrDelete(etag: answer.headers.first(name: "etag"), equals: SignatureV4.hex(whole.md5), key: key)
            return
        }
        let created = try await send(
            method: .POST, key: key, query: [("uploads", "")], headers: Self.objectHeaders(contentType: contentType, md5: nil, metadata: metadata),
            expect: [200])
        guard let uploadID = S3XML.text("UploadId", in: String(decoding: created.body, as: UTF8.self)[...]), !uploadID.isEmpty else {
            throw .malformed("CreateMultipartUpload gave no UploadId")
        }
        do {
            var parts: [(number: Int, etag: String)] = []
            var md5s = Data()
            var offset = 0
            while offset < size {
                let length = min(settings.partSize, size - offset)
                let number = parts.count + 1
                let digests = try Self.digests(file, offset: offset, length: length, sha256: true)
                let answer = try await send(
                    method: .PUT, key: key, query: [("partNumber", String(number)), ("uploadId", uploadID)],
                    headers: [("content-md5", digests.md5.base64EncodedString())], body: .file(file, offset: offset, length: length),
                    payloadHash: digests.sha256 ?? "", expect: [200], timeout: Self.timeout(bytes: length))
                let etag = answer.headers.first(name: "etag") ?? ""
                try Self.check(etag: etag, equals: SignatureV4.hex(digests.md5), key: "\(key) part \(number)")
                parts.append((number, etag))
                md5s.append(digests.md5)
                offset += length
            }
            let list = parts.map { "<Part><PartNumber>\($0.number)</PartNumber><ETag>\(Self.escape($0.etag))</ETag></Part>" }.joined()
            let document = Data("<CompleteMultipartUpload>\(list)</CompleteMultipartUpload>".utf8)
            let done = try await send(
                method: .POST, key: key, query: [("uploadId", uploadID)], headers: [("content-type", "application/xml")], body: .data(document),
                payloadHash: SignatureV4.hex(SHA256.hash(data: document)), expect: [200], timeout: .seconds(300))
            // S3 may answer 200 and put its error in the body.
            let text = String(decoding: done.body, as: UTF8.self)
            if let error = S3XML.error(text) { throw S3Error.refused(status: 200, code: error.code, message: error.message) }
            let expected = SignatureV4.hex(Insecure.MD5.hash(data: md5s)) + "-\(parts.count)"
            if let etag = S3XML.text("ETag", in: text[...]) { try await checkOrDelete(etag: etag, equals: expected, key: key) }
            guard let stored = try await head(key), stored.size == size else {
                try? await delete(key)
                throw S3Error.integrity("\(key) is not the \(size) bytes uploaded")
            }
        } catch {
            try? await abort(key, uploadID: uploadID)
            throw error as? S3Error ?? .local("\(error)")
        }
    }

    /// Deletes an object (there or not).
    public func delete(_ key: String) async throws(S3Error) {
        _ = try await send(method: .DELETE, key: key, expect: [200, 204, 404])
    }

    /// Every object under `prefix` (a full key prefix), page by page.
    public func list(prefix: String) async throws(S3Error) -> [S3Object] {
        var objects: [S3Object] = []
        var token: String?
        repeat {
            var query = [("list-type", "2"), ("prefix", prefix)]
            if let token { query.append(("continuation-token", token)) }
            let answer = try await send(method: .GET, key: nil, query: query, expect: [200])
            let page = try S3XML.objectPage(String(decoding: answer.body, as: UTF8.self))
            objects += page.objects
            token = page.next
        } while token != nil
        return objects
    }

    /// Unfinished multipart uploads under `prefix`.
    public func unfinishedUploads(prefix: String) async throws(S3Error) -> [S3Upload] {
        var uploads: [S3Upload] = []
        var marker: (key: String, uploadID: String)?
        repeat {
            var query = [("uploads", ""), ("prefix", prefix)]
            if let marker { query += [("key-marker", marker.key), ("upload-id-marker", marker.uploadID)] }
            let answer = try await send(method: .GET, key: nil, query: query, expect: [200])
            let page = try S3XML.uploadPage(String(decoding: answer.body, as: UTF8.self))
            uploads += page.uploads
            marker = page.next
        } while marker != nil
        return uploads
    }

    public func abort(_ key: String, uploadID: String) async throws(S3Error) {
        _ = try await send(method: .DELETE, key: key, query: [("uploadId", uploadID)], expect: [200, 204, 404])
    }

    /// Start-up's check that the bucket is there and the keys may list it: names what is wrong.
    public func checkAccess() async throws(S3Error) {
        _ = try await send(method: .GET, key: nil, query: [("list-type", "2"), ("max-keys", "1"), ("prefix", key(""))], expect: [200])
    }
}
