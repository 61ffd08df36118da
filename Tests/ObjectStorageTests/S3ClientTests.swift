import Crypto
import Foundation
import Photos
import Testing

@testable import ObjectStorage
@testable import S3Answers

/// The client against a real S3-compatible server: SeaweedFS, started by `make test` (scripts/with-object-store.sh).
@Suite(.enabled(if: LiveStore.settings() != nil)) struct S3ClientTests {
    let client: S3Client

    init() throws {
        client = S3Client(settings: try #require(LiveStore.settings(prefix: "client-\(UUID().uuidString.prefix(8))")))
    }

    func temporaryFile(_ data: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("s3-\(UUID().uuidString)")
        try data.write(to: url)
        return url
    }

    static func random(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    @Test func putReadRangesListAndDelete() async throws {
        let data = Self.random(100_000)
        let key = client.key("dir/사진 one+two.bin")
        try await client.put(key, data: data, contentType: "application/octet-stream")
        let head = try #require(try await client.head(key))
        #expect(head.size == data.count)
        #expect(try await client.read(key, range: 10...19) == data.subdata(in: 10..<20))
        #expect(try await client.read(key, range: 99_990...99_999) == data.subdata(in: 99_990..<100_000))
        #expect(try await client.read(key, limit: 1 << 20) == data)
        #expect(try await client.list(prefix: client.key("dir/")).map(\.key) == [key])
        try await client.delete(key)
        #expect(try await client.head(key) == nil)
        #expect(try await client.read(key, range: 0...1) == nil)
        try await client.delete(key)  // gone already: no error
    }

    @Test func listingsPageThrough() async throws {
        // More than one page (S3 gives at most 1000 a page).
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<1_005 {
                group.addTask { try await client.put(client.key("many/\(index)"), data: Data("\(index)".utf8), contentType: "text/plain") }
                if index % 16 == 15 { try await group.waitForAll() }
            }
            try await group.waitForAll()
        }
        #expect(try await client.list(prefix: client.key("many/")).count == 1_005)
    }

    @Test func largeFilesGoUpInPartsAndComeBackWhole() async throws {
        var settings = client.settings
        settings.partSize = S3Settings.minimumPartSize
        let parts = S3Client(settings: settings)
        let data = Self.random(S3Settings.minimumPartSize * 2 + 12_345)
        let file = try temporaryFile(data)
        defer { try? FileManager.default.removeItem(at: file) }
        let key = client.key("big.bin")
        let sha = SignatureV4.hex(SHA256.hash(data: data))
        try await parts.upload(key, file: file, sha256: sha, contentType: "application/octet-stream")
        let head = try #require(try await client.head(key))
        #expect(head.size == data.count && head.etag.hasSuffix("-3") && head.sha256 == sha)
        let copy = file.appendingPathExtension("copy")
        defer { try? FileManager.default.removeItem(at: copy) }
        #expect(try await client.download(key, size: head.size, to: copy) == sha)
        #expect(try Data(contentsOf: copy) == data)
        #expect(try await client.unfinishedUploads(prefix: client.key("")).isEmpty)
    }

    @Test func aFailedPartAbortsTheUpload() async throws {
        var settings = client.settings
        settings.partSize = S3Settings.minimumPartSize
        let parts = S3Client(settings: settings)
        let data = Self.random(S3Settings.minimumPartSize + 10)
        let file = try temporaryFile(data)
        defer { try? FileManager.default.removeItem(at: file) }
        // A wrong SHA-256 for the whole file: refused before anything is sent.
        await #expect(throws: S3Error.self) {
            try await parts.upload(client.key("wrong.bin"), file: file, sha256: String(repeating: "0", count: 64), contentType: "x/y")
        }
        #expect(try await client.head(client.key("wrong.bin")) == nil)
        #expect(try await client.unfinishedUploads(prefix: client.key("")).isEmpty)
    }

    @Test func unfinishedUploadsAreListedAndAborted() async throws {
        let key = client.key("abandoned.bin")
        let created = try await client.send(method: .POST, key: key, query: [("uploads", "")], expect: [200])
        let id = try #require(S3XML.text("UploadId", in: String(decoding: created.body, as: UTF8.self)[...]))
        let listed = try await client.unfinishedUploads(prefix: client.key(""))
        #expect(listed.map(\.uploadID) == [id])
        try await client.abort(key, uploadID: id)
        #expect(try await client.unfinishedUploads(prefix: client.key("")).isEmpty)
    }

    @Test func wrongKeysAndMissingBucketsAreNamed() async throws {
        var wrong = client.settings
        wrong.credentials = S3Credentials(accessKeyID: wrong.credentials.accessKeyID, secretAccessKey: "not-the-secret")
        await #expect {
            try await S3Client(settings: wrong).checkAccess()
        } throws: { error in
            (error as? S3Error)?.isCredentials == true
        }
        var missing = client.settings
        missing.bucket = "no-such-bucket-\(UUID().uuidString.prefix(8).lowercased())"
        await #expect {
            try await ObjectPhotoStorage.open(missing, dataFolder: FileManager.default.temporaryDirectory)
        } throws: { error in
            "\(error)".contains("does not exist")
        }
    }

    @Test func nothingListeningIsUnreachableAfterRetries() async throws {
        var settings = client.settings
        settings.endpoint = try #require(URL(string: "http://127.0.0.1:9"))
        let started = ContinuousClock.now
        await #expect {
            try await S3Client(settings: settings, attempts: 3, firstPause: .milliseconds(50)).head("x")
        } throws: { error in
            if case .unreachable = error as? S3Error { return true }
            return false
        }
        #expect(ContinuousClock.now - started >= .milliseconds(200))  // 50 ms, then 150 ms, between the three tries
    }
}

/// The photo storage contract on object storage: the same bytes stored once, thumbnails cached, a fetched original
/// checked against its name.
@Suite(.enabled(if: LiveStore.settings() != nil)) struct ObjectPhotoStorageTests {
    @Test func originalsAndThumbnails() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ops-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let storage = try ObjectPhotoStorage(
            client: S3Client(settings: try #require(LiveStore.settings(prefix: "storage-\(UUID().uuidString.prefix(8))"))), dataFolder: folder)
        let bytes = S3ClientTests.random(70_000)
        let sha = SignatureV4.hex(SHA256.hash(data: bytes))
        func staged() throws -> UploadWriter {
            let writer = try storage.stage(limits: .standard)
            try bytes.withUnsafeBytes { try writer.write($0) }
            _ = try writer.finish()
            return writer
        }
        let first = try staged()
        #expect(try await storage.putOriginal(first.url, sha256: sha, format: .jpeg))
        let second = try staged()
        #expect(try await !storage.putOriginal(second.url, sha256: sha, format: .jpeg))  // there already
        #expect(!FileManager.default.fileExists(atPath: second.url.path))
        #expect(try await storage.listOriginals().map(\.sha256) == [sha])
        let opened = try #require(try await storage.openOriginal(sha256: sha, format: .jpeg))
        var read = Data()
        try await opened.read(5...69_999, chunkSize: 4096) { read.append($0) }
        #expect(read == bytes.subdata(in: 5..<70_000))
        let local = try #require(try await storage.localOriginal(sha256: sha, format: .jpeg))
        #expect(try Data(contentsOf: local.url) == bytes)

        try await storage.putThumbnail(Data("small".utf8), sha256: sha, size: .small)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("photos/cache"))  // only a cache
        let thumbnail = try #require(try await storage.openThumbnail(sha256: sha, size: .small))
        #expect(thumbnail.byteCount == 5)
        #expect(try await storage.openThumbnail(sha256: sha, size: .large) == nil)
        #expect(try await storage.listThumbnails() == [StoredThumbnail(sha256: sha, size: .small)])

        // An object whose bytes do not hash to its name is never handed out as that photo.
        let other = String(repeating: "ab", count: 32)
        try await storage.client.put(storage.client.key(StoredOriginal(sha256: other, format: .png).path), data: bytes, contentType: "image/png")
        await #expect(throws: PhotoError.self) { try await storage.localOriginal(sha256: other, format: .png) }

        await storage.delete(sha256: sha, format: .jpeg)
        await storage.delete(sha256: other, format: .png)
        #expect(try await storage.listOriginals().isEmpty)
        #expect(try await storage.listThumbnails().isEmpty)
    }
}

enum LiveStore {
    /// The test store's settings (SAESSAK_TEST_S3_URL and keys), under `prefix`.
    static func settings(prefix: String = "") -> S3Settings? {
        let environment = ProcessInfo.processInfo.environment
        guard let url = environment["SAESSAK_TEST_S3_URL"], var components = URLComponents(string: url) else { return nil }
        components.path = "/swift-tests/\(prefix)"
        return try? S3Settings(
            url: components.string ?? url,
            environment: [
                S3Settings.accessKeyVariable: environment["SAESSAK_TEST_S3_ACCESS_KEY_ID"] ?? "",
                S3Settings.secretKeyVariable: environment["SAESSAK_TEST_S3_SECRET_ACCESS_KEY"] ?? "",
            ])
    }
}
