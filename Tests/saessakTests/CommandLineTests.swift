import ArgumentParser
import Testing

@testable import saessak

/// Parsing and validation of the command line; running commands is tested end to end in tests/test_cli.py.
@Suite struct CommandLineTests {
    @Test func serveDefaults() throws {
        let serve = try #require(try Saessak.parseAsRoot(["serve"]) as? Serve)
        #expect(serve.server.host == "127.0.0.1" && serve.server.port == 8080 && serve.data.folder == "saessak-data")
    }

    /// `saessak doctor` checks with the options the service runs with: every one `serve` takes.
    @Test func doctorTakesWhatServeTakes() throws {
        let options = [
            "--host", "0.0.0.0", "--port", "9000", "--header-timeout", "5", "--max-video-minutes", "3", "--weather-pause", "0",
            "--smtp-host", "mail.example.kr", "--mail-from", "diary@example.kr", "--public-url", "https://diary.example.kr",
            "--snapshot-every", "24h", "--count-statements", "--data", "/var/lib/saessak",
        ]
        let serve = try #require(try Saessak.parseAsRoot(["serve"] + options) as? Serve)
        let doctor = try #require(try Saessak.parseAsRoot(["doctor"] + options) as? DoctorCommand)
        #expect(doctor.server.host == serve.server.host && doctor.server.port == 9000 && doctor.mail.smtpHost == "mail.example.kr")
        #expect(throws: (any Error).self) { try Saessak.parseAsRoot(["doctor", "--port", "70000"]) }
    }

    @Test(arguments: [
        ["serve", "--port", "-1"], ["serve", "--port", "65536"], ["serve", "--host", ""],
        ["admin", "create-user", "--username", "a"], ["entries", "list", "--child", "x"], ["entries", "list", "--limit", "500"],
        ["children", "list", "--nonsense"], ["admin", "create-token"],
    ])
    func wrongArgumentsAreRefused(_ arguments: [String]) {
        #expect(throws: (any Error).self) { try Saessak.parseAsRoot(arguments) }
    }

    @Test func everyCommandTakesData() throws {
        for arguments in [["serve"], ["admin", "create-user", "--username", "a", "--password-stdin"],
                          ["admin", "create-token", "--username", "a"], ["children", "list"], ["entries", "list"]] {
            _ = try Saessak.parseAsRoot(arguments + ["--data", "/tmp/x"])
        }
    }
}
