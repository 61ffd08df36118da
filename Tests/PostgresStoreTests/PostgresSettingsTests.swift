import Foundation
import PostgresStore
import Testing

/// `--database` / SAESSAK_DATABASE_URL: what is accepted, what is refused by name, and that no password is ever in
/// the URL or in what is shown of it.
@Suite struct PostgresSettingsTests {
    @Test func readsTheURLAndThePasswordFromTheEnvironmentOrAFile() throws {
        let plain = try PostgresSettings(url: "postgres://saessak@db.internal/diary?sslmode=require&pool=8", environment: [:])
        #expect(plain.host == "db.internal" && plain.port == 5432 && plain.user == "saessak" && plain.database == "diary")
        #expect(plain.tls == .require && plain.maximumConnections == 8 && plain.password == nil && plain.schema == nil)
        let fromEnvironment = try PostgresSettings(
            url: "postgresql://mina@127.0.0.1:6543?schema=family_one", environment: ["SAESSAK_DATABASE_PASSWORD": "s3cret"])
        #expect(fromEnvironment.port == 6543 && fromEnvironment.database == "mina" && fromEnvironment.password == "s3cret")
        #expect(fromEnvironment.schema == "family_one" && !fromEnvironment.description.contains("s3cret"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-password-\(UUID().uuidString)")
        try Data("from a file\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let fromFile = try PostgresSettings(
            url: "postgres://mina@localhost/d",
            environment: ["SAESSAK_DATABASE_PASSWORD_FILE": file.path, "SAESSAK_DATABASE_PASSWORD": "not this"])
        #expect(fromFile.password == "from a file")
        #expect(fromFile.description == "postgres://mina@localhost:5432/d")
    }

    @Test(arguments: [
        ("mysql://a@b/c", "must look like postgres://"),
        ("postgres://mina:s3cret@db/d", "must not hold the password"),
        ("postgres://db/d", "names no user"),
        ("postgres://mina@/d", "names no host"),
        ("postgres://mina@db:0/d", "out of range"),
        ("postgres://mina@db/d/e", "must not contain '/'"),
        ("postgres://mina@db/d?sslmode=maybe", "sslmode must be"),
        ("postgres://mina@db/d?pool=0", "pool must be"),
        ("postgres://mina@db/d?schema=Robert%27);", "schema must be a plain name"),
        ("postgres://mina@db/d?timeout=3", "unknown parameter 'timeout'"),
    ])
    func refusesWhatItCannotUseByName(url: String, message: String) {
        #expect {
            _ = try PostgresSettings(url: url, environment: ["SAESSAK_DATABASE_PASSWORD_FILE": "/nonexistent"])
        } throws: { error in
            "\(error)".contains(message) && !"\(error)".contains("s3cret")
        }
    }

    @Test func anUnreadablePasswordFileIsNamed() {
        #expect {
            _ = try PostgresSettings(url: "postgres://mina@db/d", environment: ["SAESSAK_DATABASE_PASSWORD_FILE": "/nonexistent"])
        } throws: { error in
            "\(error)".contains("SAESSAK_DATABASE_PASSWORD_FILE")
        }
    }
}
