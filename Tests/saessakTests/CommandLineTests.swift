import ArgumentParser
import Testing

@testable import saessak

/// Parsing and validation of the command line; running commands is tested end to end in tests/test_cli.py.
@Suite struct CommandLineTests {
    @Test func serveDefaults() throws {
        let serve = try #require(try Saessak.parseAsRoot(["serve"]) as? Serve)
        #expect(serve.host == "127.0.0.1" && serve.port == 8080 && serve.data.folder == "saessak-data")
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
