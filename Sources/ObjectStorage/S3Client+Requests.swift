import AsyncHTTPClient
import Crypto
import Foundation
import S3Answers
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// How each request is made: signed, sent, tried again; and the small helpers the operations share.
extension S3Client {
    // MARK: Requests

    enum Body {
        case none
        case data(Data)
        case file(URL, offset: Int, length: Int)
    }

    struct Answer {
        let status: Int
        let headers: HTTPHeaders
        /// Empty when a `BodySink` took a success's body.
        let body: Data
    }

    /// Where a success's body goes as it arrives, instead of being collected into memory (a download to a file).
    /// Each try begins with `restart`, which forgets what an earlier try gave. Its own failure (a full disk) is not
    /// the store's: thrown as it is, and not tried again.
    protocol BodySink: AnyObject {
        func restart(status: Int) throws(S3Error)
        func take(_ piece: ByteBuffer) throws(S3Error)
    }

    /// Signs and sends one request, trying again on 5xx, timeouts and dropped connections. An answer outside
    /// `expect` is `.refused` with S3's code and message.
    func send(
        method: HTTPMethod, key: String?, query: [(String, String)] = [], headers: [(String, String)] = [], body: Body = .none,
        payloadHash: String = SignatureV4.emptyPayloadHash, expect: Set<Int>, responseLimit: Int = 1 << 20, sink: (any BodySink)? = nil,
        timeout: Duration = .seconds(60)
    ) async throws(S3Error) -> Answer {
        var pause = firstPause
        var attempt = 0
        while true {
            attempt += 1
            let failure: S3Error
            do {
                let answer = try await sendOnce(
                    method: method, key: key, query: query, headers: headers, body: body, payloadHash: payloadHash, responseLimit: responseLimit,
                    sink: sink, timeout: timeout)
                if expect.contains(answer.status) { return answer }
                let (code, message) = S3XML.error(String(decoding: answer.body, as: UTF8.self)) ?? (Self.code(for: answer.status), "")
                let refusal = S3Error.refused(status: answer.status, code: code, message: message)
                guard answer.status >= 500 || answer.status == 429 || code == "RequestTimeout" || code == "SlowDown" else { throw refusal }
                failure = .unreachable("\(method) answered \(answer.status) \(code)")
            } catch let error as S3Error {
                throw error
            } catch is CancellationError {
                throw .unreachable("cancelled")
            } catch {
                failure = .unreachable("\(method) failed: \(Self.describe(error))")
            }
            guard attempt < attempts else { throw failure }
            let jitter = Double.random(in: 1...1.5)
            do { try await Task.sleep(for: pause * jitter) } catch { throw .unreachable("cancelled") }
            pause *= 3
        }
    }

    private func sendOnce(
        method: HTTPMethod, key: String?, query: [(String, String)], headers: [(String, String)], body: Body, payloadHash: String,
        responseLimit: Int, sink: (any BodySink)?, timeout: Duration
    ) async throws -> Answer {
        let (url, host, path) = address(key: key, query: query)
        var request = HTTPClientRequest(url: url)
        request.method = method
        var extra = headers
        switch body {
        case .none: break
        case .data(let data):
            request.body = .bytes(ByteBuffer(bytes: data))
            extra.append(("content-length", String(data.count)))
        case .file(let file, let offset, let length):
            request.body = .stream(FilePieces(file: file, offset: offset, length: length), length: .known(Int64(length)))
            extra.append(("content-length", String(length)))
        }
        for (name, value) in signer.sign(method: method.rawValue, host: host, path: path, query: query, headers: extra, payloadHash: payloadHash, date: Date()) {
            request.headers.add(name: name, value: value)
        }
        let seconds = Int64(timeout.components.seconds)
        let response = try await http.execute(request, timeout: .seconds(max(1, seconds)))
        let status = Int(response.status.code)
        let data: Data
        if method == .HEAD {
            data = Data()
        } else if let sink, (200..<300).contains(status) {
            try sink.restart(status: status)
            var received = 0
            for try await piece in response.body {
                received += piece.readableBytes
                guard received <= responseLimit else { throw NIOTooManyBytesError(maxBytes: responseLimit) }
                try sink.take(piece)
            }
            data = Data()
        } else {
            // Error bodies are small; a success body is read up to what was asked for, into one buffer of its
            // announced length, and handed on without a copy (a 4 MB window was 10 MB at its peak: the buffer
            // doubling as it filled, then copied).
            let limit = (200..<300).contains(status) ? responseLimit : 64 << 10
            let announced = response.headers.first(name: "content-length").flatMap { Int($0) }
            guard (announced ?? 0) <= limit else { throw NIOTooManyBytesError(maxBytes: limit) }
            var buffer = ByteBuffer()
            buffer.reserveCapacity(announced ?? 0)
            for try await piece in response.body {
                guard buffer.readableBytes + piece.readableBytes <= limit else { throw NIOTooManyBytesError(maxBytes: limit) }
                buffer.writeImmutableBuffer(piece)
            }
            data = buffer.getData(at: buffer.readerIndex, length: buffer.readableBytes) ?? Data()
        }
        return Answer(status: status, headers: response.headers, body: data)
    }

    /// The request URL (keys percent-encoded once, as signed), the Host header and the path that is signed.
    func address(key: String?, query: [(String, String)]) -> (url: String, host: String, path: String) {
        let endpoint = settings.endpoint
        let scheme = endpoint.scheme ?? "https"
        let baseHost = endpoint.host ?? ""
        let port = endpoint.port.map { ":\($0)" } ?? ""
        let host: String
        var path: String
        switch settings.style {
        case .path:
            host = baseHost + port
            path = "/\(settings.bucket)" + (key.map { "/\($0)" } ?? "")
        case .virtual:
            host = "\(settings.bucket).\(baseHost)\(port)"
            path = "/" + (key ?? "")
        }
        if key == nil && settings.style == .path { path += "/" }
        let queryText = SignatureV4.canonicalQuery(query)
        return ("\(scheme)://\(host)\(SignatureV4.canonicalPath(path))\(queryText.isEmpty ? "" : "?" + queryText)", host, path)
    }

    // MARK: Helpers

    static func objectHeaders(contentType: String, md5: Data?, metadata: [String: String]) -> [(String, String)] {
        var headers = [("content-type", contentType)]
        if let md5 { headers.append(("content-md5", md5.base64EncodedString())) }
        for (name, value) in metadata.sorted(by: { $0.key < $1.key }) { headers.append(("x-amz-meta-\(name)", value)) }
        return headers
    }

    static func check(etag: String?, equals expected: String, key: String) throws(S3Error) {
        let got = unquote(etag ?? "").lowercased()
        // Some stores give other ETags (encrypted objects); a plain MD5 or multipart form must match.
        let looksLikeMD5 = got.count >= 32 && got.prefix(32).allSatisfy(\.isHexDigit)
        guard !looksLikeMD5 || got == expected else { throw .integrity("\(key): the store's ETag \(got) is not the MD5 sent, \(expected)") }
    }

    static func unquote(_ etag: String) -> String { etag.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func code(for status: Int) -> String {
        switch status {
        case 403: "AccessDenied"
        case 404: "NotFound"
        default: ""
        }
    }

    /// Sixty seconds, plus one for each 256 KiB (a slow home uplink of 2 Mbit/s).
    static func timeout(bytes: Int) -> Duration { .seconds(60 + bytes / (256 << 10)) }

    static func size(of file: URL) throws(S3Error) -> Int {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path), let size = (attributes[.size] as? NSNumber)?.intValue else {
            throw .local("cannot read \(file.lastPathComponent)")
        }
        return size
    }

    /// MD5 (for Content-MD5 and the ETag) and, when asked, SHA-256 (the payload hash) of part of a file.
    static func digests(_ file: URL, offset: Int, length: Int, sha256 wanted: Bool) throws(S3Error) -> (md5: Data, sha256: String?) {
        var md5 = Insecure.MD5()
        var sha = SHA256()
        do {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(offset))
            var left = length
            while left > 0 {
                guard let data = try handle.read(upToCount: min(pieceSize, left)), !data.isEmpty else { throw S3Error.local("\(file.lastPathComponent) ended early") }
                md5.update(data: data)
                if wanted { sha.update(data: data) }
                left -= data.count
            }
        } catch let error as S3Error {
            throw error
        } catch {
            throw .local("cannot read \(file.lastPathComponent): \(error)")
        }
        return (Data(md5.finalize()), wanted ? SignatureV4.hex(sha.finalize()) : nil)
    }

    /// An error's kind without its noise (async-http-client's errors print as structs).
    static func describe(_ error: any Error) -> String {
        let text = String(describing: error)
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }
}

/// A range of a file as a sequence of byte buffers, read as the HTTP client asks for them.
struct FilePieces: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let file: URL
    let offset: Int
    let length: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FileHandle?
        var left: Int

        mutating func next() async throws -> ByteBuffer? {
            guard left > 0 else { return nil }
            guard let handle, let data = try handle.read(upToCount: Swift.min(S3Client.pieceSize, left)), !data.isEmpty else {
                throw S3Error.local("the file being uploaded ended early")
            }
            left -= data.count
            if left == 0 { try? handle.close() }
            return ByteBuffer(bytes: data)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        let handle = try? FileHandle(forReadingFrom: file)
        do { try handle?.seek(toOffset: UInt64(offset)) } catch { return AsyncIterator(handle: nil, left: length) }
        return AsyncIterator(handle: handle, left: length)
    }
}
