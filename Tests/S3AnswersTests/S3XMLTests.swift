import Foundation
import Testing

@testable import S3Answers

@Suite struct S3XMLTests {
    @Test func aListingPage() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><KeyCount>2</KeyCount>
            <Contents><Key>p/originals/ab/a&amp;b.jpg</Key><LastModified>2026-11-23T10:00:00.000Z</LastModified>
            <ETag>&quot;5d41402abc4b2a76b9719d911017c592&quot;</ETag><Size>5</Size></Contents>
            <Contents><Key>p/x</Key><LastModified>2026-11-23T10:00:01Z</LastModified><ETag/><Size>0</Size></Contents>
            <IsTruncated>true</IsTruncated><NextContinuationToken>tok&#x2F;1</NextContinuationToken></ListBucketResult>
            """
        let page = try S3XML.objectPage(xml)
        #expect(page.objects.map(\.key) == ["p/originals/ab/a&b.jpg", "p/x"])
        #expect(page.objects[0].etag == "\"5d41402abc4b2a76b9719d911017c592\"" && page.objects[0].size == 5)
        #expect(page.objects[1].etag == "" && page.objects[1].lastModified == Date(timeIntervalSince1970: 1_795_428_001))
        #expect(page.next == "tok/1")
    }

    @Test func uploadsAndErrors() throws {
        let uploads = try S3XML.uploadPage(
            "<ListMultipartUploadsResult><Upload><Key>k</Key><UploadId>u1</UploadId><Initiated>2026-11-23T10:00:00Z</Initiated></Upload><IsTruncated>false</IsTruncated></ListMultipartUploadsResult>")
        #expect(uploads.uploads == [S3Upload(key: "k", uploadID: "u1", initiated: Date(timeIntervalSince1970: 1_795_428_000))])
        #expect(uploads.next == nil)
        let error = S3XML.error("<?xml version=\"1.0\"?><Error><Code>NoSuchBucket</Code><Message>The bucket &lt;b&gt; is gone</Message></Error>")
        #expect(error?.code == "NoSuchBucket" && error?.message == "The bucket <b> is gone")
    }

    @Test func malformedAnswersAreNamedNotTrusted() {
        #expect(throws: S3Error.self) { try S3XML.objectPage("<html>proxy error</html>") }
        #expect(throws: S3Error.self) { try S3XML.objectPage("<ListBucketResult><Contents><Key>k</Key></Contents>") }
        #expect(throws: S3Error.self) { try S3XML.objectPage("<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>") }
        #expect(throws: S3Error.self) {
            try S3XML.objectPage("<ListBucketResult><Contents><Key>k</Key><Size>-1</Size><LastModified>2026-11-23T10:00:00Z</LastModified></Contents>")
        }
        // Cut short anywhere, or with broken entities: found or not, never a trap.
        let whole = "<ListBucketResult><Contents><Key>a&#99999999;&#x;&bogus;&</Key><Size>1</Size><LastModified>2026-11-23T10:00:00Z</LastModified></Contents></ListBucketResult>"
        for end in whole.indices { _ = try? S3XML.objectPage(String(whole[..<end])) }
        #expect(S3XML.unescape("a&#99999999;&#x;&bogus;&") == "a&#99999999;&#x;&bogus;&")
        #expect(S3XML.elements("Key", in: "<KeyCount>1</KeyCount><Key/><Key>x</Key>").map(String.init) == ["", "x"])
    }
}
