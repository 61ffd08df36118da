import Foundation
import Testing

@testable import WebApp

/// Where the first-run link printed by `serve` points: a passkey can be made only on a page opened by a name.
@Suite struct SetupLinkTests {
    @Test(arguments: [
        (nil, "127.0.0.1", "http://localhost:8080"),
        (nil, "::1", "http://localhost:8080"),
        (nil, "localhost", "http://localhost:8080"),
        (nil, "192.168.0.10", "http://192.168.0.10:8080"),
        (nil, "0.0.0.0", "http://0.0.0.0:8080"),
        (nil, "fd00::5", "http://[fd00::5]:8080"),
        ("https://diary.example.kr/", "127.0.0.1", "https://diary.example.kr"),
        ("https://diary.example.kr:8443", "0.0.0.0", "https://diary.example.kr:8443"),
    ] as [(String?, String, String)])
    func theLinkNamesTheServer(publicURL: String?, host: String, expected: String) throws {
        #expect(setupLink(publicURL: try publicURL.map { try #require(URL(string: $0)) }, host: host, port: 8080) == expected)
    }
}
