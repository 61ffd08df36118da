import Foundation
import Testing

@testable import ObjectStorage

@Suite struct S3SettingsTests {
    let keys = ["SAESSAK_S3_ACCESS_KEY_ID": "AKID", "SAESSAK_S3_SECRET_ACCESS_KEY": "s3cr3t"]

    @Test func aURLAndItsDefaults() throws {
        let local = try S3Settings(url: "s3://family-photos/saessak/one?endpoint=http://127.0.0.1:8333&region=kr&part-size=5242880", environment: keys)
        #expect(local.bucket == "family-photos" && local.prefix == "saessak/one" && local.region == "kr" && local.style == .path)
        #expect(local.partSize == 5 << 20 && local.endpoint.absoluteString == "http://127.0.0.1:8333")
        let aws = try S3Settings(url: "s3://family-photos", environment: keys)
        #expect(aws.endpoint.absoluteString == "https://s3.us-east-1.amazonaws.com" && aws.style == .virtual && aws.prefix == "")
        #expect(!aws.description.contains("s3cr3t") && !"\(aws.credentials)".contains("s3cr3t"))
    }

    @Test func addressing() throws {
        let path = S3Client(settings: try S3Settings(url: "s3://b-1/p?endpoint=http://127.0.0.1:9000", environment: keys))
        let address = path.address(key: "p/originals/ab/a b.jpg", query: [("uploadId", "x/y")])
        #expect(address.url == "http://127.0.0.1:9000/b-1/p/originals/ab/a%20b.jpg?uploadId=x%2Fy")
        #expect(address.host == "127.0.0.1:9000" && address.path == "/b-1/p/originals/ab/a b.jpg")
        #expect(path.address(key: nil, query: [("list-type", "2")]).url == "http://127.0.0.1:9000/b-1/?list-type=2")
        let virtual = S3Client(settings: try S3Settings(url: "s3://b-1?region=ap-northeast-2", environment: keys))
        #expect(virtual.address(key: "k", query: []).url == "https://b-1.s3.ap-northeast-2.amazonaws.com/k")
    }

    @Test func keysFromFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("s3keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "AKFILE\n".write(to: folder.appendingPathComponent("id"), atomically: true, encoding: .utf8)
        try "secret-from-file\n".write(to: folder.appendingPathComponent("secret"), atomically: true, encoding: .utf8)
        let settings = try S3Settings(
            url: "s3://bucket", environment: [
                "SAESSAK_S3_ACCESS_KEY_ID_FILE": folder.appendingPathComponent("id").path,
                "SAESSAK_S3_SECRET_ACCESS_KEY_FILE": folder.appendingPathComponent("secret").path,
            ])
        #expect(settings.credentials == S3Credentials(accessKeyID: "AKFILE", secretAccessKey: "secret-from-file"))
    }

    @Test(arguments: [
        ("http://bucket", "s3://BUCKET"),
        ("s3://AKID:secret@bucket", "must not hold keys"),
        ("s3://Bucket_Name", "bucket name"),
        ("s3://ab", "bucket name"),
        ("s3://bucket?endpoint=ftp://host", "endpoint must be"),
        ("s3://bucket?endpoint=http://host/path", "endpoint must be"),
        ("s3://bucket?region=a b", "region must be"),
        ("s3://bucket?style=sideways", "style must be"),
        ("s3://bucket?part-size=1024", "part-size must be"),
        ("s3://bucket?colour=blue", "unknown parameter 'colour'"),
        ("s3://bucket/a/../b", "'..'"),
        ("s3://my.bucket", "style=path"),
    ])
    func badURLsAreNamed(url: String, named: String) {
        #expect {
            try S3Settings(url: url, environment: keys)
        } throws: { error in
            "\(error)".contains(named)
        }
    }

    @Test func missingKeysAreNamed() {
        #expect {
            try S3Settings(url: "s3://bucket", environment: [:])
        } throws: { error in
            "\(error)".contains("SAESSAK_S3_ACCESS_KEY_ID")
        }
    }
}
