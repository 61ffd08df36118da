import ArgumentParser
import Diary
import DiaryStore
import Persistence
import PostgresStore
import Files
import Foundation
import Secrets

struct Admin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set up users, families and API tokens; maintain the data folder.",
        subcommands: [
            CreateUser.self, AddMember.self, ResetPassword.self, CreateToken.self, RevokeToken.self, RotateKey.self, Reindex.self,
            SetupLinkCommand.self,
        ])
}

struct SetupLinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup-link",
        abstract: "Print the one-time link that creates the first owner, while the running server offers it.",
        discussion: """
            A server with nobody signed up prints the link at start (with the Debian package, to the journal) and keeps
            it in the data folder until it is used; run this as the user the server runs as:
              sudo -u saessak saessak admin setup-link --data /var/lib/saessak
            """)

    @OptionGroup var data: DataOptions

    func run() throws {
        let file = data.url.appendingPathComponent(DataFolder.setupLinkFile)
        guard let link = try? String(contentsOf: file, encoding: .utf8), link.hasPrefix("http") else {
            throw CLIError(
                "no setup link in \(data.url.path): the diary has its owner already (sign in, or `saessak admin reset-password`), "
                    + "or the server has not started on this folder yet")
        }
        print(link.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

struct CreateUser: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a user and a family they own.",
        discussion: """
            The password is read from the first line of standard input, so it stays out of the shell history:
              printf '%s\\n' 'correct horse' | saessak admin create-user --username mina --password-stdin
            """)

    @OptionGroup var data: DataOptions

    @Option(help: "Letters, digits, '.', '_' or '-'.")
    var username: String

    @OptionGroup var password: PasswordInput

    @Option(help: "Create this family with the user as its owner (default: a family named after the user).")
    var family: String?

    func run() async throws {
        let password = try password.read()
        let database = try await data.openOrCreate()
        let (user, family) = try await database.stores.accounts.createUser(
            username: username, passwordHash: PasswordHasher().hash(password), familyName: family ?? username)
        print("created user '\(user.username)', owner of family '\(family.name)'")
    }
}

struct ResetPassword: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Give a user a new password and sign them out everywhere, API tokens included.",
        discussion: """
            For a forgotten password, and for the members of a restored family backup, which keeps only the password             of whoever took it. Safe while the server runs: the user's sessions and tokens stop at once.
              printf '%s\\n' 'a new long password' | saessak admin reset-password --username mina --password-stdin
            """)

    @OptionGroup var data: DataOptions

    @Option(help: "The user whose password to set.")
    var username: String

    @OptionGroup var password: PasswordInput

    func run() async throws {
        let password = try password.read()
        let accounts = try await data.openExisting().stores.accounts
        let user = try await accounts.user(named: username)
        try await accounts.signOutEverywhere(user, passwordHash: PasswordHasher().hash(password))
        print("set a new password for '\(username)'; their sessions and API tokens have ended")
    }
}

/// `--password-stdin`: a password read from the first line of standard input, so it stays out of the shell history.
struct PasswordInput: ParsableArguments {
    @Flag(help: "Read the password from standard input (required).")
    var passwordStdin = false

    func validate() throws {
        guard passwordStdin else { throw ArgumentParser.ValidationError("--password-stdin is required: pipe the password in") }
    }

    /// The password, checked as every password is.
    func read() throws -> String {
        guard let password = readLine(strippingNewline: true), !password.isEmpty else {
            throw CLIError("no password on standard input")
        }
        if let problem = PasswordHasher.problem(with: password) { throw CLIError("password \(problem)") }
        return password
    }
}

struct AddMember: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add an existing user to a family, or change their role in it.",
        discussion: """
            owner: everything, members and deletion included; editor: writes the diary, children and events (the \
            other parent); viewer: reads only (grandparents). A family always keeps at least one owner.
            """)

    @OptionGroup var data: DataOptions

    @Option(help: "The user to add.")
    var username: String

    @Option(help: "The family to add them to.")
    var family: String

    @Option(help: "owner, editor or viewer.")
    var role: Role

    func run() async throws {
        let database = try await data.openExisting()
        let existed = try await database.stores.accounts.addMember(username: username, familyName: family, role: role)
        print(existed ? "'\(username)' is now \(role.rawValue) of '\(family)'" : "added '\(username)' to '\(family)' as \(role.rawValue)")
    }
}

extension Role: ExpressibleByArgument {}

struct CreateToken: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Issue an API token for a user; prints the token and nothing else.",
        discussion: "The token is shown once; the server keeps only its hash. Send it as 'Authorization: Bearer <token>'.")

    @OptionGroup var data: DataOptions
    @OptionGroup var family: FamilyOption

    @Option(help: "The user the token acts for.")
    var username: String

    @Option(help: "A label to recognise the token by.")
    var name = "cli"

    @Option(help: "Limit the token to this role (owner, editor or viewer; default: the user's role).")
    var role: Role?

    func run() async throws {
        let database = try await data.openExisting()
        let (token, _) = try await database.stores.accounts.createToken(
            username: username, familyName: family.family, name: name, role: role)
        print(token)
    }
}

struct RevokeToken: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Revoke a user's API tokens by their label; they stop working at once.")

    @OptionGroup var data: DataOptions

    @Option(help: "The user whose tokens to revoke.")
    var username: String

    @Option(help: "Only tokens for this family (default: every family of the user).")
    var family: String?

    @Option(help: "The label the tokens were made with.")
    var name: String

    func run() async throws {
        let database = try await data.openExisting()
        let count = try await database.stores.accounts.revokeTokens(username: username, familyName: family, name: name)
        guard count > 0 else { throw CLIError("'\(username)' has no token named '\(name)'") }
        print("revoked \(count) token\(count == 1 ? "" : "s") named '\(name)'")
    }
}

struct Reindex: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rebuild the search index from every entry and memo.",
        discussion: """
            The index is kept up to date with every write; rebuilding is for repairs and is safe while the server \
            runs (it is one transaction).
            """)

    @OptionGroup var data: DataOptions

    func run() async throws {
        let database = try await data.openExisting()
        let counts = try await database.stores.search.reindex()
        print("search index rebuilt: \(counts.entries) entries, \(counts.memos) memos")
    }
}

struct RotateKey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Re-encrypt the sensitive fields with a new key. Stop the server first.",
        discussion: """
            With the key in secret.key: the new key is written to secret.key.next, every sealed value is re-encrypted \
            in one transaction, and secret.key.next replaces secret.key. If this is interrupted, the server refuses \
            to start until 'rotate-key' is run again, which finishes or restarts the rotation.
            With SAESSAK_SECRET_KEY set: the values are re-encrypted and the new key is printed once; set \
            SAESSAK_SECRET_KEY to it before the next start.
            """)

    @OptionGroup var data: DataOptions

    func run() async throws {
        let folder = data.url
        let postgres = try data.postgres()
        let path = folder.appendingPathComponent(DiaryDatabase.fileName).path
        guard postgres != nil || FileManager.default.fileExists(atPath: path) else {
            throw CLIError("no Saessak data in '\(data.folder)'")
        }
        func open(_ cipher: FieldCipher) async throws -> any DiaryEngine {
            guard let postgres else { return try DiaryDatabase(path: path, cipher: cipher) }
            do {
                return try await PostgresDatabase.open(postgres, cipher: cipher, create: false)
            } catch let error as PostgresDatabase.Unreachable {
                throw CLIError(error.description)
            }
        }
        let new = FieldCipher.random()
        if ProcessInfo.processInfo.environment[FieldCipher.environmentVariable] != nil {
            let old = try FieldCipher.forDataFolder(folder)
            let count = try await open(old).reseal(from: old, to: new)
            print("re-encrypted \(count) value\(count == 1 ? "" : "s"); set \(FieldCipher.environmentVariable) to this new key before the next start:")
            print(new.keyData.base64EncodedString())
            return
        }
        let keyFile = folder.appendingPathComponent(FieldCipher.keyFileName)
        let nextFile = folder.appendingPathComponent(FieldCipher.nextKeyFileName)
        let old = try FieldCipher.fromFile(keyFile)
        let database = try await open(old)
        if FileManager.default.fileExists(atPath: nextFile.path) {
            // An interrupted rotation: if the data is already under the next key, only the rename is left.
            let next = try FieldCipher.fromFile(nextFile)
            if let sample = try await database.sampleSealedValue(), next.opens(sample), !old.opens(sample) {
                try AtomicFile.move(nextFile, over: keyFile)
                print("finished an interrupted key rotation")
                return
            }
            try FileManager.default.removeItem(at: nextFile)
        }
        try AtomicFile.write(new.keyData, to: nextFile, permissions: 0o600)
        let count = try await database.reseal(from: old, to: new)
        try AtomicFile.move(nextFile, over: keyFile)
        print("re-encrypted \(count) value\(count == 1 ? "" : "s") with a new key in \(FieldCipher.keyFileName)")
    }
}
