import Logging
import Synchronization
import Testing

@testable import Services

@Suite struct EscapingLogHandlerTests {
    /// What the wrapped handler was given.
    final class Recorder: LogHandler, @unchecked Sendable {
        let events = Mutex<[(String, Logger.Metadata)]>([])
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { events.withLock { $0.append((event.message.description, event.metadata ?? [:])) } }
    }

    @Test(arguments: [
        ("GET /\r\n2026-11-25 INFO admin signed in 200", #"GET /\u{D}\u{A}2026-11-25 INFO admin signed in 200"#),
        ("GET /\u{1B}[31mred", #"GET /\u{1B}[31mred"#),
        ("tab\there, bell\u{7}, del\u{7F}, c1\u{85}", #"tab\u{9}here, bell\u{7}, del\u{7F}, c1\u{85}"#),
        ("line\u{2028}sep \u{202E}txt.exe", #"line\u{2028}sep \u{202E}txt.exe"#),
        ("하늘이의 첫 걸음 📷", "하늘이의 첫 걸음 📷"),
    ])
    func controlCharactersAreWrittenAsEscapes(_ text: String, _ logged: String) {
        let recorder = Recorder()
        let logger = Logger(label: "test", factory: { _ in EscapingLogHandler(recorder) })
        logger.info("\(text)", metadata: ["path\n": "\(text)", "list": [.string(text)]])
        let (message, metadata) = recorder.events.withLock { $0[0] }
        #expect(message == logged)
        #expect(metadata[#"path\u{A}"#] == .string(logged))
        #expect(metadata["list"] == .array([.string(logged)]))
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 })
    }
}
